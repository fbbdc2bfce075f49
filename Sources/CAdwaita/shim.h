// libadwaita for LiveryAdwaita only: an app that does not depend on the LiveryAdwaita product
// never needs libadwaita installed to build.
#pragma once
#include <adwaita.h>
