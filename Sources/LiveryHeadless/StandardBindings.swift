import Livery
import LiveryModel

/// Bindings of the headless reference components to the whole standard schema. Closures
/// rather than key paths: they are what an apply pass calls 80,000 times in a big switch.
@MainActor
public enum StandardBindings {
    public static func register(in applicator: Applicator) {
        applicator.register(view)
        applicator.register(label)
        applicator.register(button)
        applicator.register(imageView)
        applicator.register(switchBinding)
        applicator.register(slider)
        applicator.register(progressView)
        applicator.register(textField)
        applicator.register(textView)
        applicator.register(navigationBar)
    }

    /// A new reference component of the class these bindings bind to a standard component type
    /// (`uilabel` gives a `Label`), or nil for a type they do not bind: what a test or a
    /// benchmark makes to style an instance of the theme.
    public static func makeComponent(ofType type: some StringProtocol) -> View? {
        switch type {
        case "uiview": View()
        case "uilabel": Label()
        case "uibutton": Button()
        case "uiimageview": ImageView()
        case "uiswitch": Switch()
        case "uislider": Slider()
        case "uiprogressview": ProgressView()
        case "uitextfield": TextField()
        case "uitextview": TextView()
        case "uinavigationbar": NavigationBar()
        default: nil
        }
    }

    public static var view: ComponentBinding<View> {
        var binding = ComponentBinding<View>("uiview")
        binding.bind("frame", get: { $0.frame }, set: { $0.frame = $1 })
        binding.bind("backgroundColor", get: { $0.backgroundColor }, set: { $0.backgroundColor = $1 })
        binding.bind("cornerRadius", get: { $0.cornerRadius }, set: { $0.cornerRadius = $1 })
        binding.bind("borderColor", get: { $0.borderColor }, set: { $0.borderColor = $1 })
        binding.bind("borderWidth", get: { $0.borderWidth }, set: { $0.borderWidth = $1 })
        binding.bind("alpha", get: { $0.alpha }, set: { $0.alpha = $1 })
        binding.bind("hidden", get: { $0.isHidden }, set: { $0.isHidden = $1 })
        binding.bind("tintColor", get: { $0.tintColor }, set: { $0.tintColor = $1 })
        binding.bind("clipsToBounds", get: { $0.clipsToBounds }, set: { $0.clipsToBounds = $1 })
        binding.bind("shadowColor", get: { $0.shadowColor }, set: { $0.shadowColor = $1 })
        binding.bind("shadowOpacity", get: { $0.shadowOpacity }, set: { $0.shadowOpacity = $1 })
        binding.bind("shadowRadius", get: { $0.shadowRadius }, set: { $0.shadowRadius = $1 })
        binding.bind("shadowOffset", get: { $0.shadowOffset }, set: { $0.shadowOffset = $1 })
        return binding
    }

    public static var label: ComponentBinding<Label> {
        var binding = ComponentBinding<Label>("uilabel", extends: "uiview")
        binding.bind("textColor", get: { $0.textColor }, set: { $0.textColor = $1 })
        binding.bind("font", get: { $0.font }, set: { $0.font = $1 })
        binding.bind("textAlignment", get: { $0.textAlignment }, set: { $0.textAlignment = $1 })
        binding.bind("numberOfLines", get: { $0.numberOfLines }, set: { $0.numberOfLines = $1 })
        binding.bind("text", get: { $0.text }, set: { $0.text = $1 })
        return binding
    }

    public static var button: ComponentBinding<Button> {
        var binding = ComponentBinding<Button>("uibutton", extends: "uiview")
        binding.bindPerState(
            "titleColor", get: { $0.titleColors.value(for: $1) }, set: { $0.titleColors.set($1, for: $2) })
        binding.bindPerState("title", get: { $0.titles.value(for: $1) }, set: { $0.titles.set($1, for: $2) })
        binding.bindPerState("image", get: { $0.images.value(for: $1) }, set: { $0.images.set($1, for: $2) })
        binding.bindPerState(
            "backgroundImage", get: { $0.backgroundImages.value(for: $1) },
            set: { $0.backgroundImages.set($1, for: $2) })
        binding.bind("titleFont", get: { $0.titleFont }, set: { $0.titleFont = $1 })
        binding.bind("contentEdgeInsets", get: { $0.contentEdgeInsets }, set: { $0.contentEdgeInsets = $1 })
        return binding
    }

    public static var imageView: ComponentBinding<ImageView> {
        var binding = ComponentBinding<ImageView>("uiimageview", extends: "uiview")
        binding.bind("image", get: { $0.image }, set: { $0.image = $1 })
        binding.bind("contentMode", get: { $0.contentMode }, set: { $0.contentMode = $1 })
        return binding
    }

    public static var switchBinding: ComponentBinding<Switch> {
        var binding = ComponentBinding<Switch>("uiswitch", extends: "uiview")
        binding.bind("onTintColor", get: { $0.onTintColor }, set: { $0.onTintColor = $1 })
        binding.bind("thumbTintColor", get: { $0.thumbTintColor }, set: { $0.thumbTintColor = $1 })
        return binding
    }

    public static var slider: ComponentBinding<Slider> {
        var binding = ComponentBinding<Slider>("uislider", extends: "uiview")
        binding.bind("minimumTrackTintColor", get: { $0.minimumTrackTintColor }, set: { $0.minimumTrackTintColor = $1 })
        binding.bind("maximumTrackTintColor", get: { $0.maximumTrackTintColor }, set: { $0.maximumTrackTintColor = $1 })
        binding.bind("thumbTintColor", get: { $0.thumbTintColor }, set: { $0.thumbTintColor = $1 })
        binding.bindPerState(
            "thumbImage", get: { $0.thumbImages.value(for: $1) }, set: { $0.thumbImages.set($1, for: $2) })
        return binding
    }

    public static var progressView: ComponentBinding<ProgressView> {
        var binding = ComponentBinding<ProgressView>("uiprogressview", extends: "uiview")
        binding.bind("progressTintColor", get: { $0.progressTintColor }, set: { $0.progressTintColor = $1 })
        binding.bind("trackTintColor", get: { $0.trackTintColor }, set: { $0.trackTintColor = $1 })
        return binding
    }

    public static var textField: ComponentBinding<TextField> {
        var binding = ComponentBinding<TextField>("uitextfield", extends: "uiview")
        binding.bind("textColor", get: { $0.textColor }, set: { $0.textColor = $1 })
        binding.bind("font", get: { $0.font }, set: { $0.font = $1 })
        binding.bind("textAlignment", get: { $0.textAlignment }, set: { $0.textAlignment = $1 })
        binding.bind("placeholderColor", get: { $0.placeholderColor }, set: { $0.placeholderColor = $1 })
        binding.bind("borderStyle", get: { $0.borderStyle }, set: { $0.borderStyle = $1 })
        return binding
    }

    public static var textView: ComponentBinding<TextView> {
        var binding = ComponentBinding<TextView>("uitextview", extends: "uiview")
        binding.bind("textColor", get: { $0.textColor }, set: { $0.textColor = $1 })
        binding.bind("font", get: { $0.font }, set: { $0.font = $1 })
        binding.bind("textAlignment", get: { $0.textAlignment }, set: { $0.textAlignment = $1 })
        binding.bind("textContainerInset", get: { $0.textContainerInset }, set: { $0.textContainerInset = $1 })
        return binding
    }

    public static var navigationBar: ComponentBinding<NavigationBar> {
        var binding = ComponentBinding<NavigationBar>("uinavigationbar", extends: "uiview")
        binding.bind("barTintColor", get: { $0.barTintColor }, set: { $0.barTintColor = $1 })
        binding.bind("titleColor", get: { $0.titleColor }, set: { $0.titleColor = $1 })
        binding.bind("titleFont", get: { $0.titleFont }, set: { $0.titleFont = $1 })
        binding.bind("backgroundImage", get: { $0.backgroundImage }, set: { $0.backgroundImage = $1 })
        binding.bind("translucent", get: { $0.isTranslucent }, set: { $0.isTranslucent = $1 })
        return binding
    }
}
