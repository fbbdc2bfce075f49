// The runtime apps link: theme manager, applicator, bindings.
