import CGTK
import Livery
import LiveryGTK

/// The app's own component: a chat bubble (`chatbubble` in the sample themes' Components.xml).
/// Its GTK widget is a `GtkFixed` holding the message and the time; its handle subclasses
/// LiveryGTK's `Widget`, as an app's own component type does.
enum TailStyle: String, ThemeValueConvertible {
    case none, round, pointed
}

@MainActor
final class ChatBubble: LiveryGTK.Widget {
    var bubbleColors: [ControlState: Color] = [:]
    var tailStyle = TailStyle.none

    /// Only the normal colour shows: a GtkFixed has no pressed state.
    func setBubbleColor(_ color: Color?, for state: ControlState) {
        bubbleColors[state] = color
        if state == .normal { cssBackgroundColor = color }
    }
}

@MainActor
func chatBubbleBinding() -> ComponentBinding<ChatBubble> {
    var binding = ComponentBinding<ChatBubble>("chatbubble", extends: "uiview")
    binding.bindPerState("bubbleColor", get: { $0.bubbleColors[$1] }, set: { $0.setBubbleColor($1, for: $2) })
    binding.bind("tailStyle", get: { $0.tailStyle }, set: { $0.tailStyle = $1 })
    binding.bind("textInsets", get: { $0.cssPadding }, set: { $0.cssPadding = $1 })
    return binding
}

/// The chat screen of the sample themes as GTK widgets in a `GtkFixed`: the themes place every
/// widget by `frame` (an iPhone's 375 x 667 points), and everything else (colours, fonts,
/// images, titles per state) comes from the theme. One `style` call per widget.
@MainActor
final class ChatScreen {
    /// The screen: 375 x 667, clipping what the theme places beyond it.
    let root: UnsafeMutablePointer<GtkWidget>
    private(set) var widgets: [UnsafeMutablePointer<GtkWidget>] = []
    private var screen: UnsafeMutablePointer<GtkWidget>!
    private var bubbleWidgets: [UnsafeMutablePointer<GtkWidget>] = []
    private var bubbleContents: [UnsafeMutablePointer<GtkWidget>] = []
    private var observation: ObservationToken?

    init(applicator: Applicator, scope: ThemeScope? = nil) {
        // A scrolled window without scrollbars: it keeps the screen's size whatever GTK's
        // minimum sizes of the widgets inside, as a phone's screen does.
        root = gtk_scrolled_window_new()
        gtk_scrolled_window_set_policy(OpaquePointer(root), GTK_POLICY_EXTERNAL, GTK_POLICY_EXTERNAL)
        gtk_widget_set_size_request(root, 375, 667)
        gtk_widget_set_halign(root, GTK_ALIGN_START)
        gtk_widget_set_valign(root, GTK_ALIGN_START)
        screen = gtk_fixed_new()!
        gtk_scrolled_window_set_child(OpaquePointer(root), screen)
        let fixed = livery_fixed(screen)

        func style(_ widget: UnsafeMutablePointer<GtkWidget>, _ identifier: String) {
            if let scope { scope.style(widget, as: identifier) } else { applicator.style(widget, as: identifier) }
            widgets.append(widget)
        }
        let background = gtk_fixed_new()!
        gtk_fixed_put(fixed, background, 0, 0)
        style(background, "chat_background")

        let navigationBar = gtk_header_bar_new()!
        gtk_header_bar_set_show_title_buttons(livery_header_bar(navigationBar), 0)
        gtk_header_bar_set_title_widget(livery_header_bar(navigationBar), gtk_label_new(nil))
        gtk_fixed_put(fixed, navigationBar, 0, 0)
        style(navigationBar, "nav_bar_main")

        let title = gtk_label_new("Chat")!
        gtk_fixed_put(fixed, title, 0, 0)
        style(title, "label_title")

        let progress = gtk_progress_bar_new()!
        gtk_progress_bar_set_fraction(livery_progress_bar(progress), 0.6)
        gtk_fixed_put(fixed, progress, 0, 0)
        style(progress, "progress_upload")

        let avatar = gtk_picture_new()!
        gtk_fixed_put(fixed, avatar, 0, 0)
        style(avatar, "image_avatar")

        // The themes frame one bubble's message and time in screen coordinates, relative to the
        // incoming bubble at (56, 56). Each bubble's labels sit in a GtkFixed of their own,
        // shifted by the bubble's offset from that one, above the bubbles, so the same frames
        // place them on either bubble.
        let bubbles = [
            ("bubble_incoming", "Dark mode tonight?", "21:04"),
            ("bubble_outgoing", "Switching live, watch.", "21:05"),
        ]
        for (identifier, _, _) in bubbles {
            let bubble = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
            _ = ChatBubble(attachingTo: bubble)
            gtk_fixed_put(fixed, bubble, 0, 0)
            style(bubble, identifier)
            bubbleWidgets.append(bubble)
        }
        for (_, text, time) in bubbles {
            let content = gtk_fixed_new()!
            gtk_fixed_put(fixed, content, 0, 0)
            bubbleContents.append(content)
            let message = gtk_label_new(text)!
            let timestamp = gtk_label_new(time)!
            gtk_fixed_put(livery_fixed(content), message, 0, 0)
            gtk_fixed_put(livery_fixed(content), timestamp, 0, 0)
            style(message, "label_message")
            style(timestamp, "label_timestamp")
        }

        let input = gtk_entry_new()!
        gtk_entry_set_placeholder_text(livery_entry(input), "Message")
        gtk_fixed_put(fixed, input, 0, 0)
        style(input, "textfield_message")

        let send = gtk_button_new_with_label("Send")!
        gtk_fixed_put(fixed, send, 0, 0)
        style(send, "button_send")
        placeBubbleContents()
        // After the applicator (which observes first) has applied the new frames.
        observation = applicator.manager.observe { [weak self] _ in self?.placeBubbleContents() }
    }

    /// Moves each bubble's labels by the bubble's offset from the incoming bubble.
    private func placeBubbleContents() {
        func position(_ widget: UnsafeMutablePointer<GtkWidget>) -> (x: Float, y: Float) {
            var x: Float = 0, y: Float = 0
            if let transform = gtk_fixed_get_child_transform(livery_fixed(screen), widget) {
                gsk_transform_to_translate(transform, &x, &y)
            }
            return (x, y)
        }
        let reference = position(bubbleWidgets[0])
        for (bubble, content) in zip(bubbleWidgets, bubbleContents) {
            let origin = position(bubble)
            gtk_fixed_move(
                livery_fixed(screen), content, Double(origin.x - reference.x), Double(origin.y - reference.y))
        }
    }
}
