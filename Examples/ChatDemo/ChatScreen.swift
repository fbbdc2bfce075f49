import Livery
import LiveryHeadless
import LiveryModel

/// The app's own component: a chat bubble, declared for themes in `Components.xml`.
enum TailStyle: String, ThemeValueConvertible {
    case none, round, pointed
}

final class ChatBubble: View {
    var bubbleColors = PerState<Color>()
    var tailStyle = TailStyle.none
    var textInsets = Insets(top: 0, left: 0, bottom: 0, right: 0)
    let message = Label(name: "message")
    let timestamp = Label(name: "timestamp")

    init(name: String, text: String, time: String) {
        super.init(name: name)
        message.text = text
        timestamp.text = time
        addSubview(message)
        addSubview(timestamp)
    }
}

/// The binding is the only code the custom component needs; it names the component it extends, as
/// Components.xml declares, so debug and release builds inherit the same `uiview` operations.
@MainActor
func chatBubbleBinding() -> ComponentBinding<ChatBubble> {
    var binding = ComponentBinding<ChatBubble>("chatbubble", extends: "uiview")
    binding.bindPerState(
        "bubbleColor", get: { $0.bubbleColors.value(for: $1) }, set: { $0.bubbleColors.set($1, for: $2) })
    binding.bind("tailStyle", \.tailStyle)
    binding.bind("textInsets", \.textInsets)
    return binding
}

/// A small chat screen built from the headless components. Each component is styled with one
/// call; everything else (colours, fonts, images, per-state titles) comes from the theme.
@MainActor
final class ChatScreen {
    let root = View(name: "chat")
    let navigationBar = NavigationBar(name: "navigation bar")
    let title = Label(name: "title")
    let avatar = ImageView(name: "avatar")
    let bubbles: [ChatBubble]
    let input = TextField(name: "message field")
    let send = Button(name: "send")
    let progress = ProgressView(name: "upload")

    init(applicator: Applicator) {
        bubbles = [
            ChatBubble(name: "incoming", text: "Dark mode tonight?", time: "21:04"),
            ChatBubble(name: "outgoing", text: "Switching live, watch.", time: "21:05"),
        ]
        title.text = "Chat"
        for view in [navigationBar, title, avatar] as [View] { root.addSubview(view) }
        for bubble in bubbles { root.addSubview(bubble) }
        for view in [input, send, progress] as [View] { root.addSubview(view) }

        applicator.style(root, as: "chat_background")
        applicator.style(navigationBar, as: "nav_bar_main")
        applicator.style(title, as: "label_title")
        applicator.style(avatar, as: "image_avatar")
        applicator.style(bubbles[0], as: "bubble_incoming")
        applicator.style(bubbles[1], as: "bubble_outgoing")
        for bubble in bubbles {
            applicator.style(bubble.message, as: "label_message")
            applicator.style(bubble.timestamp, as: "label_timestamp")
        }
        applicator.style(input, as: "textfield_message")
        applicator.style(send, as: "button_send")
        applicator.style(progress, as: "progress_upload")
    }

    /// A few lines that show the look at a glance.
    func describe() -> String {
        func hex(_ color: Color?) -> String { color?.hexString ?? "unset" }
        func font(_ font: Font?) -> String {
            font.map { "\($0.family) \($0.size.map { String($0) } ?? "-") \($0.weight.rawValue)" } ?? "unset"
        }
        var lines: [String] = []
        lines.append(
            "  background \(hex(root.backgroundColor)); nav bar \(hex(navigationBar.barTintColor)), title \(hex(title.textColor)) \(font(title.font)) \(title.textAlignment.rawValue)"
        )
        lines.append("  avatar \(avatar.image?.description ?? "none"), corner radius \(avatar.cornerRadius)")
        for bubble in bubbles {
            lines.append(
                "  \(bubble.name) bubble \(hex(bubble.bubbleColors.value(for: .normal))) (pressed \(hex(bubble.bubbleColors.value(for: .highlighted)))), tail \(bubble.tailStyle.rawValue), shadow \(bubble.shadowOpacity); text \(hex(bubble.message.textColor)) \(font(bubble.message.font))"
            )
        }
        lines.append(
            "  send button \"\(send.titles.value(for: .normal) ?? "")\" \(hex(send.titleColors.value(for: .normal))) on \(hex(send.backgroundColor)), disabled \"\(send.titles.value(for: .disabled) ?? "")\"; field border \(send.borderWidth) / \(input.borderWidth)"
        )
        return lines.joined(separator: "\n")
    }
}
