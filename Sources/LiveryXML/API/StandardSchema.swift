import LiveryModel

/// The standard component schema of section 5 of the format, written in the schema file format
/// itself and decoded by the same code as custom schema files, so the two cannot drift apart.
public enum StandardSchema {
    /// The components every engine knows (uiview, uilabel, uibutton, ...).
    public static let schema: Schema = {
        let source = SourceText(path: "<standard schema>", bytes: Array(xml.utf8))
        guard let document = XMLDocumentParser.parse(source).document else { return Schema() }
        var context = DecodingContext(source: source)
        return SchemaDecoder.decode(document.root, context: &context)
    }()

    /// The schema as XML: also a worked example of the format for custom schema files.
    public static let xml = """
        <components>
          <component name="uiview">
            <operation name="frame"><param name="rect" type="rect"/></operation>
            <operation name="backgroundColor"><param name="color" type="color" role="background-color"/></operation>
            <operation name="cornerRadius"><param name="radius" type="float"/></operation>
            <operation name="borderColor"><param name="color" type="color"/></operation>
            <operation name="borderWidth"><param name="width" type="float"/></operation>
            <operation name="alpha"><param name="value" type="float"/></operation>
            <operation name="hidden"><param name="value" type="bool"/></operation>
            <operation name="tintColor"><param name="color" type="color"/></operation>
            <operation name="clipsToBounds"><param name="value" type="bool"/></operation>
            <operation name="shadowColor"><param name="color" type="color"/></operation>
            <operation name="shadowOpacity"><param name="value" type="float"/></operation>
            <operation name="shadowRadius"><param name="radius" type="float"/></operation>
            <operation name="shadowOffset"><param name="offset" type="size"/></operation>
          </component>
          <component name="uilabel" extends="uiview">
            <operation name="textColor"><param name="color" type="color" role="text-color"/></operation>
            <operation name="font"><param name="font" type="font"/></operation>
            <operation name="textAlignment"><param name="alignment" type="enum" values="left center right justified natural"/></operation>
            <operation name="numberOfLines"><param name="count" type="integer"/></operation>
            <operation name="text"><param name="text" type="string"/></operation>
          </component>
          <component name="uibutton" extends="uiview">
            <operation name="titleColor" states="true"><param name="color" type="color" role="text-color"/></operation>
            <operation name="titleFont"><param name="font" type="font"/></operation>
            <operation name="title" states="true"><param name="text" type="string"/></operation>
            <operation name="image" states="true"><param name="image" type="image"/></operation>
            <operation name="backgroundImage" states="true"><param name="image" type="image"/></operation>
            <operation name="contentEdgeInsets"><param name="insets" type="insets"/></operation>
          </component>
          <component name="uiimageview" extends="uiview">
            <operation name="image"><param name="image" type="image"/></operation>
            <operation name="contentMode"><param name="mode" type="enum" values="scaleToFill scaleAspectFit scaleAspectFill center top bottom left right"/></operation>
          </component>
          <component name="uiswitch" extends="uiview">
            <operation name="onTintColor"><param name="color" type="color"/></operation>
            <operation name="thumbTintColor"><param name="color" type="color"/></operation>
          </component>
          <component name="uislider" extends="uiview">
            <operation name="minimumTrackTintColor"><param name="color" type="color"/></operation>
            <operation name="maximumTrackTintColor"><param name="color" type="color"/></operation>
            <operation name="thumbTintColor"><param name="color" type="color"/></operation>
            <operation name="thumbImage" states="true"><param name="image" type="image"/></operation>
          </component>
          <component name="uiprogressview" extends="uiview">
            <operation name="progressTintColor"><param name="color" type="color"/></operation>
            <operation name="trackTintColor"><param name="color" type="color"/></operation>
          </component>
          <component name="uitextfield" extends="uiview">
            <operation name="textColor"><param name="color" type="color" role="text-color"/></operation>
            <operation name="font"><param name="font" type="font"/></operation>
            <operation name="textAlignment"><param name="alignment" type="enum" values="left center right justified natural"/></operation>
            <operation name="placeholderColor"><param name="color" type="color" role="text-color"/></operation>
            <operation name="borderStyle"><param name="style" type="enum" values="none line bezel roundedRect"/></operation>
          </component>
          <component name="uitextview" extends="uiview">
            <operation name="textColor"><param name="color" type="color" role="text-color"/></operation>
            <operation name="font"><param name="font" type="font"/></operation>
            <operation name="textAlignment"><param name="alignment" type="enum" values="left center right justified natural"/></operation>
            <operation name="textContainerInset"><param name="insets" type="insets"/></operation>
          </component>
          <component name="uinavigationbar" extends="uiview">
            <operation name="barTintColor"><param name="color" type="color"/></operation>
            <operation name="titleColor"><param name="color" type="color" role="text-color"/></operation>
            <operation name="titleFont"><param name="font" type="font"/></operation>
            <operation name="backgroundImage"><param name="image" type="image"/></operation>
            <operation name="translucent"><param name="value" type="bool"/></operation>
          </component>
        </components>
        """
}
