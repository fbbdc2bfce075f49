import Foundation

/// Writes a large, valid theme folder for measurements and scale tests: `instances` instances
/// over standard components, spread over files of 1,000, with constants, classes, references, a
/// dark layer and one image asset. Values vary per instance (frames, texts), so deduplication in
/// the compiled file has no unfair advantage.
public enum SyntheticTheme {
    public static let id = "com.livery.synthetic"

    /// Writes `<folder>/Synthetic.theme` (replacing it) and returns its path.
    @discardableResult
    public static func write(instances: Int, into folder: String) throws -> String {
        let theme = folder + "/Synthetic.theme"
        let manager = FileManager.default
        try? manager.removeItem(atPath: theme)
        try manager.createDirectory(atPath: theme + "/assets", withIntermediateDirectories: true)
        func put(_ name: String, _ text: String) throws {
            try Data(text.utf8).write(to: URL(fileURLWithPath: theme + "/" + name))
        }
        try put(
            "Info.xml",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <theme-info id="\(id)" name="Synthetic" version="1.0.0"/>

            """)
        try put(
            "Constants.xml",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <theme>
              <constants>
                <color name="textPrimary">#1C1C1E</color>
                <color name="accent">#0A84FF</color>
                <color name="surface" format="rgba">0.96,0.96,0.97,1</color>
                <float name="radius">8</float>
                <font name="body" family="Inter" size="15"/>
                <font name="title" family="Inter" size="20" weight="semibold"/>
              </constants>
              <classes>
                <class name="rounded">
                  <operation name="cornerRadius"><param name="radius"><float ref="radius"/></param></operation>
                  <operation name="clipsToBounds"><param name="value"><bool>true</bool></param></operation>
                </class>
                <class name="body">
                  <operation name="font"><param name="font"><font ref="body"/></param></operation>
                  <operation name="textAlignment"><param name="alignment"><enum>natural</enum></param></operation>
                </class>
              </classes>
            </theme>

            """)
        try put(
            "Constants~dark.xml",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <theme>
              <constants>
                <color name="textPrimary">#F2F2F7</color>
                <color name="surface">#1C1C1E</color>
              </constants>
            </theme>

            """)
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]).write(
            to: URL(fileURLWithPath: theme + "/assets/icon.png"))
        var file = 0
        var start = 0
        while start < instances {
            let end = min(start + 1000, instances)
            var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<theme>\n  <instances>\n"
            for index in start..<end { text += instance(index) }
            text += "  </instances>\n</theme>\n"
            try put(String(format: "Screen%03d.xml", file), text)
            file += 1
            start = end
        }
        return theme
    }

    static func instance(_ index: Int) -> String {
        let id = String(format: "%05d", index)
        let frame =
            "<operation name=\"frame\"><param name=\"rect\"><rect>\(index % 320),\(index / 320 * 4),\(100 + index % 50),44</rect></param></operation>"
        switch index % 4 {
        case 0:
            return """
                    <uilabel id="label_\(id)" class="body">
                      \(frame)
                      <operation name="text"><param name="text"><string>Item \(index)</string></param></operation>
                      <operation name="textColor"><param name="color"><color ref="textPrimary"/></param></operation>
                      <operation name="numberOfLines"><param name="count"><integer>\(index % 3)</integer></param></operation>
                    </uilabel>

                """
        case 1:
            return """
                    <uibutton id="button_\(id)" class="rounded">
                      \(frame)
                      <operation name="title"><param name="text"><string>Action \(index)</string></param></operation>
                      <operation name="titleColor" state="highlighted"><param name="color"><color ref="accent"/></param></operation>
                      <operation name="image"><param name="image"><image>icon</image></param></operation>
                      <operation name="contentEdgeInsets"><param name="insets"><insets>4,8,4,8</insets></param></operation>
                    </uibutton>

                """
        case 2:
            return """
                    <uiview id="view_\(id)" class="rounded">
                      \(frame)
                      <operation name="backgroundColor"><param name="color"><color ref="surface"/></param></operation>
                      <operation name="alpha"><param name="value"><float>0.\(index % 10)</float></param></operation>
                    </uiview>

                """
        default:
            return """
                    <uitextfield id="field_\(id)">
                      \(frame)
                      <operation name="font"><param name="font"><font ref="body"/></param></operation>
                      <operation name="textColor"><param name="color"><color ref="textPrimary"/></param></operation>
                      <operation name="placeholderColor"><param name="color"><color format="hex">#8E8E93</color></param></operation>
                      <operation name="borderStyle"><param name="style"><enum>roundedRect</enum></param></operation>
                    </uitextfield>

                """
        }
    }
}
