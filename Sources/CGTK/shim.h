// GTK 4 for LiveryGTK. GObject's cast and type-check macros and g_signal_connect are macros,
// which Swift does not import: each one LiveryGTK needs has a static inline function here.
#pragma once
#include <gtk/gtk.h>
#include <glib-unix.h>

static inline GObject *livery_object(gpointer instance) { return G_OBJECT(instance); }
static inline GtkWidget *livery_widget(gpointer instance) { return GTK_WIDGET(instance); }

static inline gboolean livery_is_label(gpointer w) { return GTK_IS_LABEL(w); }
static inline gboolean livery_is_button(gpointer w) { return GTK_IS_BUTTON(w); }
static inline gboolean livery_is_picture(gpointer w) { return GTK_IS_PICTURE(w); }
static inline gboolean livery_is_switch(gpointer w) { return GTK_IS_SWITCH(w); }
static inline gboolean livery_is_scale(gpointer w) { return GTK_IS_SCALE(w); }
static inline gboolean livery_is_progress_bar(gpointer w) { return GTK_IS_PROGRESS_BAR(w); }
static inline gboolean livery_is_entry(gpointer w) { return GTK_IS_ENTRY(w); }
static inline gboolean livery_is_text_view(gpointer w) { return GTK_IS_TEXT_VIEW(w); }
static inline gboolean livery_is_header_bar(gpointer w) { return GTK_IS_HEADER_BAR(w); }
static inline gboolean livery_is_fixed(gpointer w) { return GTK_IS_FIXED(w); }
static inline gboolean livery_is_box(gpointer w) { return GTK_IS_BOX(w); }
static inline gboolean livery_is_window(gpointer w) { return GTK_IS_WINDOW(w); }

static inline GtkLabel *livery_label(gpointer w) { return GTK_LABEL(w); }
static inline GtkButton *livery_button(gpointer w) { return GTK_BUTTON(w); }
static inline GtkPicture *livery_picture(gpointer w) { return GTK_PICTURE(w); }
static inline GtkSwitch *livery_switch(gpointer w) { return GTK_SWITCH(w); }
static inline GtkRange *livery_range(gpointer w) { return GTK_RANGE(w); }
static inline GtkScale *livery_scale(gpointer w) { return GTK_SCALE(w); }
static inline GtkProgressBar *livery_progress_bar(gpointer w) { return GTK_PROGRESS_BAR(w); }
static inline GtkEntry *livery_entry(gpointer w) { return GTK_ENTRY(w); }
static inline GtkEditable *livery_editable(gpointer w) { return GTK_EDITABLE(w); }
static inline GtkTextView *livery_text_view(gpointer w) { return GTK_TEXT_VIEW(w); }
static inline GtkHeaderBar *livery_header_bar(gpointer w) { return GTK_HEADER_BAR(w); }
static inline GtkFixed *livery_fixed(gpointer w) { return GTK_FIXED(w); }
static inline GtkBox *livery_box(gpointer w) { return GTK_BOX(w); }
static inline GtkWindow *livery_window(gpointer w) { return GTK_WINDOW(w); }
static inline GtkOverlay *livery_overlay(gpointer w) { return GTK_OVERLAY(w); }
static inline GtkColorChooser *livery_color_chooser(gpointer w) { return GTK_COLOR_CHOOSER(w); }
static inline GtkNative *livery_native(gpointer w) { return GTK_NATIVE(w); }
static inline GtkStyleProvider *livery_style_provider(gpointer p) { return GTK_STYLE_PROVIDER(p); }
static inline GdkPaintable *livery_paintable(gpointer p) { return GDK_PAINTABLE(p); }
static inline GdkTexture *livery_texture(gpointer p) { return GDK_TEXTURE(p); }

/// g_signal_connect is a macro.
static inline gulong livery_signal_connect(gpointer instance, const gchar *signal, GCallback handler, gpointer data) {
    return g_signal_connect_data(instance, signal, handler, data, NULL, (GConnectFlags)0);
}

// Properties by name: g_object_get and g_object_set are variadic, which Swift does not import.
/// A boolean property of `object` (FALSE when it has none of that name and type).
static inline gboolean livery_get_bool_property(gpointer object, const gchar *name) {
    gboolean value = FALSE;
    g_object_get(object, name, &value, NULL);
    return value;
}
static inline gint livery_get_int_property(gpointer object, const gchar *name) {
    gint value = 0;
    g_object_get(object, name, &value, NULL);
    return value;
}
/// A string property, newly allocated (free it with g_free), or NULL.
static inline gchar *livery_get_string_property(gpointer object, const gchar *name) {
    gchar *value = NULL;
    g_object_get(object, name, &value, NULL);
    return value;
}
static inline void livery_set_bool_property(gpointer object, const gchar *name, gboolean value) {
    g_object_set(object, name, value, NULL);
}
static inline void livery_set_int_property(gpointer object, const gchar *name, gint value) {
    g_object_set(object, name, value, NULL);
}
static inline void livery_set_string_property(gpointer object, const gchar *name, const gchar *value) {
    g_object_set(object, name, value, NULL);
}

// GVariant's constructors and readers are variadic, which Swift does not import: the few the
// XDG settings portal needs (LiveryGTK's PortalAccentColor) are here.
/// The `(ss)` arguments of the portal's `Read`: a namespace and a key (floating; the call sinks it).
static inline GVariant *livery_variant_two_strings(const gchar *first, const gchar *second) {
    return g_variant_new("(ss)", first, second);
}
/// An sRGB colour `(ddd)` inside `value`, however deeply wrapped in variants and one-element tuples
/// (`Read` answers `(v)` holding a `v`; `SettingChanged` carries a `v`). FALSE when it holds no `(ddd)`.
static inline gboolean livery_variant_rgb(GVariant *value, gdouble *red, gdouble *green, gdouble *blue) {
    GVariant *current = g_variant_ref(value);
    for (;;) {
        GVariant *inner = NULL;
        if (g_variant_is_of_type(current, G_VARIANT_TYPE_VARIANT)) {
            inner = g_variant_get_variant(current);
        } else if (g_variant_is_of_type(current, G_VARIANT_TYPE_TUPLE) && g_variant_n_children(current) == 1) {
            inner = g_variant_get_child_value(current, 0);
        }
        if (inner == NULL) break;
        g_variant_unref(current);
        current = inner;
    }
    gboolean found = g_variant_is_of_type(current, G_VARIANT_TYPE("(ddd)"));
    if (found) g_variant_get(current, "(ddd)", red, green, blue);
    g_variant_unref(current);
    return found;
}
/// `SettingChanged`'s `(ssv)`: the namespace and key (owned by `parameters`) and the value
/// (a new reference: unref it), or FALSE when `parameters` is not `(ssv)`.
static inline gboolean livery_variant_setting(GVariant *parameters, const gchar **namespace_, const gchar **key,
                                              GVariant **value) {
    if (!g_variant_is_of_type(parameters, G_VARIANT_TYPE("(ssv)"))) return FALSE;
    g_variant_get(parameters, "(&s&sv)", namespace_, key, value);
    return TRUE;
}

// libdispatch's entry points for an event loop other than its own (CoreFoundation's run loop uses
// them): the main queue signals this file descriptor when it has work, and the callback drains it.
// LiveryGTK watches the descriptor from GLib's loop, so work scheduled on the main queue (and the
// Swift main actor) runs in a GTK app. Exported by libdispatch, which every Swift program links.
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *message);
