import Foundation
import LiveryHeadless
import LiveryModel
import LiveryXML
import Testing

@testable import Livery

/// Every operation of the standard schema, for every state it allows, with values generated
/// from the schema itself (so an operation added to the schema without a setter fails here).
@MainActor
@Suite struct StandardBindingTests {
    let schema = StandardSchema.schema

    /// A value of the param's type that differs by `seed`, by operation and by state.
    func value(for param: ParamSchema, seed: Int, salt: Int) -> Value {
        let x = Double(seed * 100 + salt)
        switch param.type {
        case .color: return .color(Color(red: Double(salt % 256) / 255, green: Double(seed) / 4, blue: 0.5, alpha: 1))
        case .float: return .float(x + 0.5)
        case .integer: return .integer(Int64(x))
        case .bool: return .bool(seed % 2 == 0)
        case .string: return .string("text \(seed)-\(salt)")
        case .enumeration:
            let values = param.allowedValues ?? []
            return .enumeration(values[(seed + salt) % values.count])
        case .rect: return .rect(Rect(x: x, y: 1, width: 2, height: 3))
        case .size: return .size(Size(width: x, height: 4))
        case .point: return .point(Point(x: x, y: 5))
        case .insets: return .insets(Insets(top: x, left: 1, bottom: 2, right: 3))
        case .font: return .font(Font(family: "Family\(salt)", size: x, weight: .semibold))
        case .image: return .image(ImageReference(name: "image\(seed % 2)", cache: salt % 2 == 0))
        case .array: return .array([])
        }
    }

    func theme(seed: Int) -> LoadedTheme {
        var instances: [ResolvedInstance] = []
        var salt = 0
        for component in schema.components.keys.sorted() {
            var operations: [ResolvedOperation] = []
            for name in schema.operationNames(of: component) {
                let declared = schema.operation(name, of: component)!
                for state in declared.allowsStates ? ControlState.all : [.normal] {
                    salt += 1
                    operations.append(
                        ResolvedOperation(
                            name: name, state: state,
                            params: declared.params.map {
                                Param(name: $0.name, value: value(for: $0, seed: seed, salt: salt))
                            }))
                }
            }
            instances.append(ResolvedInstance(id: "every_\(component)", component: component, operations: operations))
        }
        let assets = AssetCatalog(
            searchOrder: ["std\(seed)"],
            variants: [
                AssetVariant(name: "image0", themeID: "std\(seed)", file: "assets/image0.png"),
                AssetVariant(name: "image1", themeID: "std\(seed)", file: "assets/image1.png"),
            ])
        return loadedTheme(
            "std\(seed)", instances, assets: assets,
            files: [
                AssetFileKey(themeID: "std\(seed)", file: "assets/image0.png"): Data([0]),
                AssetFileKey(themeID: "std\(seed)", file: "assets/image1.png"): Data([1]),
            ])
    }

    @Test func bindingsCoverTheWholeStandardSchema() {
        let (_, applicator) = makeApplicator()
        #expect(applicator.unboundOperations(in: schema).isEmpty)
        #expect(applicator.boundOperations(of: "uibutton").contains("frame"), "a button includes the view's operations")
    }

    @Test func everyOperationReachesItsPropertyPerState() {
        let (manager, applicator) = makeApplicator(theme(seed: 1), theme(seed: 2), activate: "std1")
        var components: [String: View] = [:]
        for component in schema.components.keys {
            let view = makeComponent(component)
            components[component] = view
            applicator.style(view, as: "every_\(component)")
        }
        var checked = 0
        for themeID in ["std1", "std2", "std1"] {
            manager.activate(themeID: themeID)
            let resolved = manager.currentTheme!
            for (component, view) in components {
                for operation in resolved.instance("every_\(component)")!.operations {
                    let actual = readBack(view, operation.name, operation.state)
                    #expect(
                        actual == expected(operation.params[0].value, theme: resolved, scale: 1),
                        "\(themeID) \(component).\(operation.name)[\(operation.state)]")
                    checked += 1
                }
            }
        }
        #expect(checked > 3 * 70)
        #expect(manager.diagnostics.reported.isEmpty, "\(manager.diagnostics.reported)")
    }
}
