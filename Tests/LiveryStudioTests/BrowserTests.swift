import AsyncHTTPClient
import Foundation
import LiveryStudio
import NIOCore
import Testing

/// WebDriver over HTTP on loopback, to Debian's chromedriver driving headless Chromium.
final class WebDriver: @unchecked Sendable {
    let process = Process()
    let port = Int.random(in: 20_000...40_000)
    var session = ""
    var base: String { "http://127.0.0.1:\(port)" }
    static let elementKey = "element-6066-11e4-a52e-4f735466cecf"

    /// Fails (it does not skip) when chromium or chromedriver is missing.
    init() async throws {
        let driver = ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        let browser = ["/usr/bin/chromium", "/usr/lib/chromium/chromium"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        guard let driver, let browser else {
            throw BrowserMissing(
                message:
                    "the browser test needs Debian's chromium and chromium-driver (Scripts/install-dependencies.sh installs them)"
            )
        }
        process.executableURL = URL(fileURLWithPath: driver)
        process.arguments = ["--port=\(port)"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<100 {
            if (try? await call("GET", "/status")) != nil { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        let capabilities: [String: Any] = [
            "capabilities": [
                "alwaysMatch": [
                    "browserName": "chrome",
                    "goog:chromeOptions": [
                        "binary": browser,
                        "args": [
                            "--headless=new", "--no-sandbox", "--disable-gpu",
                            "--disable-dev-shm-usage", "--window-size=1400,1000",
                            "--force-device-scale-factor=1",
                        ],
                    ],
                ]
            ]
        ]
        let created = try await call("POST", "/session", capabilities)
        session = ((created["value"] as? [String: Any])?["sessionId"] as? String) ?? ""
    }

    struct BrowserMissing: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    deinit { stop() }

    func quit() async {
        _ = try? await call("DELETE", "/session/\(session)")
        _ = try? await call("GET", "/shutdown")
        stop()
    }

    /// SIGKILL: chromedriver inherits the test process's signal mask, in which SIGTERM is
    /// blocked, so `terminate()` would leave it running after the tests.
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    @discardableResult
    func call(_ method: String, _ path: String, _ body: [String: Any]? = nil) async throws -> [String: Any] {
        var request = HTTPClientRequest(url: base + path)
        request.method = .init(rawValue: method)
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: body)))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        let bytes = try await response.body.collect(upTo: 64 * 1024 * 1024)
        let object = try JSONSerialization.jsonObject(with: Data(buffer: bytes)) as? [String: Any] ?? [:]
        if response.status.code >= 400 { throw WebDriverError(message: "\(method) \(path): \(object)") }
        return object
    }

    struct WebDriverError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    func open(_ url: String) async throws { try await call("POST", "/session/\(session)/url", ["url": url]) }

    func find(_ css: String) async throws -> String {
        let found = try await call("POST", "/session/\(session)/element", ["using": "css selector", "value": css])
        guard let id = (found["value"] as? [String: Any])?[Self.elementKey] as? String else {
            throw WebDriverError(message: "no element \(css)")
        }
        return id
    }

    /// Waits until `css` matches, up to a few seconds.
    func wait(for css: String) async throws -> String {
        for _ in 0..<100 {
            if let id = try? await find(css) { return id }
            try await Task.sleep(for: .milliseconds(100))
        }
        return try await find(css)
    }

    func click(_ element: String) async throws {
        try await call("POST", "/session/\(session)/element/\(element)/click", [:])
    }

    func type(_ text: String, into element: String) async throws {
        try await call("POST", "/session/\(session)/element/\(element)/clear", [:])
        try await call("POST", "/session/\(session)/element/\(element)/value", ["text": text])
    }

    func script(_ source: String) async throws -> Any? {
        try await call("POST", "/session/\(session)/execute/sync", ["script": source, "args": []])["value"]
    }

    func rect(_ element: String) async throws -> (x: Double, y: Double, width: Double, height: Double) {
        let value =
            try await call("GET", "/session/\(session)/element/\(element)/rect")["value"] as? [String: Any] ?? [:]
        func number(_ key: String) -> Double { (value[key] as? NSNumber)?.doubleValue ?? 0 }
        return (number("x"), number("y"), number("width"), number("height"))
    }

    func currentWindow() async throws -> String {
        try await call("GET", "/session/\(session)/window")["value"] as? String ?? ""
    }

    /// Opens a new tab (not switched to) and returns its handle.
    func newTab() async throws -> String {
        let value = try await call("POST", "/session/\(session)/window/new", ["type": "tab"])["value"] as? [String: Any]
        return value?["handle"] as? String ?? ""
    }

    func switchTo(_ handle: String) async throws {
        try await call("POST", "/session/\(session)/window", ["handle": handle])
    }

    /// A PNG of the viewport.
    func screenshot() async throws -> Data {
        let value = try await call("GET", "/session/\(session)/screenshot")["value"] as? String ?? ""
        return Data(base64Encoded: value) ?? Data()
    }
}

/// The colour of one pixel of a PNG, read with ImageMagick: `srgb(16,64,160)`.
func pixel(_ png: Data, x: Int, y: Int) throws -> String {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("livery-shot-\(UUID().uuidString).png")
    try png.write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["convert", file.path, "-format", "%[pixel:p{\(x),\(y)}]", "info:"]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: output, as: UTF8.self)
}

/// The studio in a real browser, as a designer uses it.
@Suite(.serialized) struct BrowserTests {
    @Test func clickEditSeeTheFindingUndo() async throws {
        let studio = try RunningStudio()
        try await studio.start()
        let browser = try await WebDriver()
        let constants = "Base.theme/Constants.xml"
        let original = try studio.copy.bytes(constants)

        try await browser.open("\(studio.base)/?token=\(studio.token)")
        let button = try await browser.wait(for: "[data-id=\"button_send\"]")
        let box = try await browser.rect(button)
        // A point of the button's fill away from its title and icon.
        let (px, py) = (Int(box.x + 3), Int(box.y + box.height / 2))
        let before = try pixel(try await browser.screenshot(), x: px, y: py)

        try await browser.click(button)
        let edit = try await browser.wait(for: "button[data-edit=\"backgroundColor|normal\"]")
        try await browser.click(edit)
        let field = try await browser.wait(for: "#edit-text")
        let generation = try await browser.script("return document.body.dataset.generation") as? String

        // Too close to the white title: the finding appears.
        try await browser.type("#F4F4F4", into: field)
        try await browser.click(try await browser.find("#edit-write"))
        try await waitForGeneration(after: generation, browser)
        let edited = try studio.copy.bytes(constants)
        let run = StudioSessionTests.changedRun(original, edited)
        #expect(run.oldMiddle == "0062CC" && run.newMiddle == "F4F4F4", "the file's diff is exactly that value: \(run)")
        #expect(edited.count == original.count)
        let contrast =
            try await browser.script(
                "return Array.from(document.querySelectorAll('#findings li[data-code=\"contrast-low\"]')).map(function(l){return l.textContent}).join('\\n')"
            ) as? String ?? ""
        #expect(contrast.contains("button_send"), "no contrast-low finding for the button: \(contrast)")
        let after = try pixel(try await browser.screenshot(), x: px, y: py)
        #expect(before != after, "the drawn button did not change colour (\(before))")
        #expect(after.contains("244,244,244"), "\(after)")

        // Fixed: the finding goes.
        let generation2 = try await browser.script("return document.body.dataset.generation") as? String
        try await browser.click(try await browser.wait(for: "button[data-edit=\"backgroundColor|normal\"]"))
        try await browser.type("#0A3A8A", into: try await browser.wait(for: "#edit-text"))
        try await browser.click(try await browser.find("#edit-write"))
        try await waitForGeneration(after: generation2, browser)
        let fixed =
            try await browser.script(
                "return Array.from(document.querySelectorAll('#findings li[data-code=\"contrast-low\"]')).map(function(l){return l.textContent}).join('\\n')"
            ) as? String ?? ""
        #expect(!fixed.contains("'button_send'"), "the finding stayed: \(fixed)")

        // Undo twice: the file byte for byte.
        for _ in 0..<2 {
            let current = try await browser.script("return document.body.dataset.generation") as? String
            try await browser.click(try await browser.find("#undo"))
            try await waitForGeneration(after: current, browser)
        }
        #expect(try studio.copy.bytes(constants) == original, "undo did not restore the file byte for byte")
        await browser.quit()
        await studio.stop()
    }

    func waitForGeneration(after generation: String?, _ browser: WebDriver) async throws {
        for _ in 0..<100 {
            let now = try await browser.script("return document.body.dataset.generation") as? String
            if now != generation { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("the page did not redraw")
    }
}

/// Changes made elsewhere while the page is open: by someone else on disk, by a second tab.
extension BrowserTests {
    static let accent = "<color name=\"accentStrong\">#0062CC</color>"
    static let accentChanged = "<color name=\"accentStrong\">#10A040</color>"

    /// Someone else's save (an editor, `git pull`): the page redraws the new value and its
    /// inspector shows it, without a click.
    @Test func aFileChangedOnDiskReloadsThePage() async throws {
        let studio = try RunningStudio()
        try await studio.start()
        let browser = try await WebDriver()
        try await browser.open("\(studio.base)/?token=\(studio.token)")
        try await browser.click(try await browser.wait(for: "[data-id=\"button_send\"]"))
        _ = try await browser.wait(for: "button[data-edit=\"backgroundColor|normal\"]")
        try await waitUntilSettled(browser)
        let generation = try await browser.script("return document.body.dataset.generation") as? String
        #expect(try await backgroundOfSend(browser) == "rgb(0, 98, 204)")

        try replace(Self.accent, with: Self.accentChanged, in: studio.copy.themes + "/Base.theme/Constants.xml")
        try await waitForGeneration(after: generation, browser)
        try await waitUntilSettled(browser)
        #expect(try await backgroundOfSend(browser) == "rgb(16, 160, 64)", "the drawn button did not follow the file")
        let shown =
            try await browser.script(
                "return document.querySelector('#inspector [data-operation=\"backgroundColor\"][data-state=\"normal\"] .value').textContent"
            ) as? String
        #expect(shown?.contains("#10A040") == true, "the inspector shows \(shown ?? "nothing")")
        await browser.quit()
        await studio.stop()
    }

    /// An editor opened before someone else saved the file: the page redraws but keeps what was
    /// typed; Write is refused with a message saying why, and nothing is written. Made again, the
    /// edit goes through.
    @Test func anEditBasedOnAStaleFileIsRefusedInThePage() async throws {
        let studio = try RunningStudio()
        try await studio.start()
        let browser = try await WebDriver()
        let constants = studio.copy.themes + "/Base.theme/Constants.xml"
        try await browser.open("\(studio.base)/?token=\(studio.token)")
        try await browser.click(try await browser.wait(for: "[data-id=\"button_send\"]"))
        try await browser.click(try await browser.wait(for: "button[data-edit=\"backgroundColor|normal\"]"))
        try await browser.type("#F4F4F4", into: try await browser.wait(for: "#edit-text"))
        let generation = try await browser.script("return document.body.dataset.generation") as? String

        try replace(Self.accent, with: Self.accentChanged, in: constants)
        let theirs = try Data(contentsOf: URL(fileURLWithPath: constants))
        try await waitForGeneration(after: generation, browser)
        try await waitUntilSettled(browser)
        #expect(try await backgroundOfSend(browser) == "rgb(16, 160, 64)", "the page did not reload")
        let typed =
            try await browser.script("var e=document.getElementById('edit-text');return e?e.value:'(no editor)'")
            as? String
        #expect(typed == "#F4F4F4", "the open editor lost what was typed")
        let note =
            try await browser.script("var n=document.querySelector('#editor .stale');return n?n.textContent:''")
            as? String ?? ""
        #expect(
            note.contains("The files changed since this editor opened"), "the kept editor does not say it may be stale")

        let before = try await browser.script("return document.body.dataset.generation") as? String
        try await browser.click(try await browser.find("#edit-write"))
        try await waitForGeneration(after: before, browser)
        let status =
            try await browser.script("var s=document.getElementById('status');return s.className+'|'+s.textContent")
            as? String ?? ""
        #expect(status.hasPrefix("refused|") && status.contains("Constants.xml changed on disk"), "status: \(status)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: constants)) == theirs, "a stale edit wrote the file")

        // Made again on the reloaded page, the edit goes through.
        try await waitUntilSettled(browser)
        try await browser.click(try await browser.wait(for: "button[data-edit=\"backgroundColor|normal\"]"))
        try await browser.type("#F4F4F4", into: try await browser.wait(for: "#edit-text"))
        let again = try await browser.script("return document.body.dataset.generation") as? String
        try await browser.click(try await browser.find("#edit-write"))
        try await waitForGeneration(after: again, browser)
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: constants)), as: UTF8.self)
        #expect(text.contains("<color name=\"accentStrong\">#F4F4F4</color>"))
        await browser.quit()
        await studio.stop()
    }

    /// Two tabs edit the same value: the second Write, based on the file the first replaced, is
    /// refused in its tab; neither edit is lost without a word.
    @Test func twoTabsCannotLoseAnEditSilently() async throws {
        let studio = try RunningStudio()
        try await studio.start()
        let browser = try await WebDriver()
        let constants = studio.copy.themes + "/Base.theme/Constants.xml"
        let url = "\(studio.base)/?token=\(studio.token)"
        try await browser.open(url)
        let first = try await browser.currentWindow()
        let second = try await browser.newTab()
        try await browser.switchTo(second)
        try await browser.open(url)
        for tab in [first, second] {
            try await browser.switchTo(tab)
            try await browser.click(try await browser.wait(for: "[data-id=\"button_send\"]"))
            try await browser.click(try await browser.wait(for: "button[data-edit=\"backgroundColor|normal\"]"))
            try await browser.type(
                tab == first ? "#F4F4F4" : "#0A3A8A", into: try await browser.wait(for: "#edit-text"))
        }
        // The second tab writes first.
        var generation = try await browser.script("return document.body.dataset.generation") as? String
        try await browser.click(try await browser.find("#edit-write"))
        try await waitForGeneration(after: generation, browser)
        let written = try Data(contentsOf: URL(fileURLWithPath: constants))
        #expect(String(decoding: written, as: UTF8.self).contains(">#0A3A8A<"))

        // The first tab's Write is refused, and says why.
        try await browser.switchTo(first)
        try await waitUntilSettled(browser)
        generation = try await browser.script("return document.body.dataset.generation") as? String
        try await browser.click(try await browser.find("#edit-write"))
        try await waitForGeneration(after: generation, browser)
        let status =
            try await browser.script("var s=document.getElementById('status');return s.className+'|'+s.textContent")
            as? String ?? ""
        #expect(status.hasPrefix("refused|") && status.contains("changed on disk"), "status: \(status)")
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: constants)) == written,
            "the first tab overwrote the second tab's edit")
        await browser.quit()
        await studio.stop()
    }

    func backgroundOfSend(_ browser: WebDriver) async throws -> String? {
        try await browser.script(
            "return getComputedStyle(document.querySelector('.el[data-id=\"button_send\"]')).backgroundColor")
            as? String
    }

    /// Waits until the page has its inspector and findings for what it drew last.
    func waitUntilSettled(_ browser: WebDriver) async throws {
        for _ in 0..<100 {
            if try await browser.script("return document.body.dataset.settled") as? String == "1" { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("the page did not settle")
    }

    func replace(_ old: String, with new: String, in path: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(old))
        try text.replacingOccurrences(of: old, with: new).write(toFile: path, atomically: true, encoding: .utf8)
    }
}

/// What a designer meets in the editor and on the composed screen.
extension BrowserTests {
    /// The hex field starts from the file's notation, the inspector says where the constant is
    /// defined, every "Write to" choice is shown whole, no absolute path shows, and Enter writes.
    @Test func theEditorShowsWhereTheEditGoesAndEnterWrites() async throws {
        let studio = try RunningStudio()
        try await studio.start()
        let browser = try await WebDriver()
        let constants = studio.copy.themes + "/Base.theme/Constants.xml"
        try await browser.open("\(studio.base)/?token=\(studio.token)")
        try await browser.click(try await browser.wait(for: "[data-id=\"button_send\"]"))
        // The longest choice: the class a value is written in.
        let clips = try await browser.wait(for: "button[data-edit=\"clipsToBounds|normal\"]")
        try await browser.click(clips)
        _ = try await browser.wait(for: "#edit-target")
        let classChoices = try await browser.script(Self.choicesScript) as? String ?? ""
        #expect(classChoices.contains("(every instance of the class follows)"), "\(classChoices)")
        #expect(!classChoices.isEmpty && !classChoices.contains("cut|"), "\(classChoices)")
        try await browser.click(clips)
        try await browser.click(try await browser.wait(for: "button[data-edit=\"backgroundColor|normal\"]"))
        let field = try await browser.wait(for: "#edit-text")
        #expect(try await browser.script("return document.getElementById('edit-text').value") as? String == "#0062CC")
        let defined =
            try await browser.script(
                "var d=document.querySelector('#inspector [data-operation=\"backgroundColor\"][data-state=\"normal\"] .defined');return d?d.textContent:''"
            ) as? String ?? ""
        #expect(defined.contains("accentStrong is defined in Themes/Base.theme/Constants.xml:13"), "\(defined)")
        // Each choice whole: no label wider than its box, none past the editor's right edge.
        let choices = try await browser.script(Self.choicesScript) as? String ?? ""
        #expect(choices.contains("constant accentStrong (every use follows)"), "\(choices)")
        #expect(!choices.isEmpty && !choices.contains("cut|"), "\(choices)")
        let inspector =
            try await browser.script("return document.getElementById('inspector').textContent") as? String ?? ""
        #expect(!inspector.contains(studio.copy.path), "an absolute path in the inspector")

        let generation = try await browser.script("return document.body.dataset.generation") as? String
        try await browser.type("#0A3A8A\u{E007}", into: field)
        try await waitForGeneration(after: generation, browser)
        let text = try String(contentsOfFile: constants, encoding: .utf8)
        #expect(text.contains("<color name=\"accentStrong\">#0A3A8A</color>"), "Enter did not write")
        await browser.quit()
        await studio.stop()
    }

    /// Each "Write to" choice of the open editor, `whole|` or `cut|` and its text: cut when its
    /// text is wider than its box or its box goes past the editor's right edge.
    static let choicesScript = """
        var box=document.getElementById('editor').getBoundingClientRect();
        return Array.from(document.querySelectorAll('#edit-target label')).map(function(l){var r=l.getBoundingClientRect();
          return (l.scrollWidth<=l.clientWidth+1&&r.right<=box.right+0.5&&r.width>0?'whole':'cut')+'|'+l.textContent}).join('\\n')
        """

    /// A value `validate` refuses: nothing is written, the editor stays open with what was typed,
    /// and says why beside it.
    @Test func aRefusedValueKeepsTheEditorAndSaysWhy() async throws {
        let studio = try RunningStudio()
        try await studio.start()
        let browser = try await WebDriver()
        let constants = studio.copy.themes + "/Base.theme/Constants.xml"
        let original = try Data(contentsOf: URL(fileURLWithPath: constants))
        try await browser.open("\(studio.base)/?token=\(studio.token)")
        try await browser.click(try await browser.wait(for: "[data-id=\"label_title\"]"))
        try await browser.click(try await browser.wait(for: "button[data-edit=\"font|normal\"]"))
        try await browser.type("-3", into: try await browser.wait(for: "#editor [data-field=\"size\"]"))
        try await browser.click(try await browser.find("#edit-write"))
        let refusal = try await browser.wait(for: "#editor #edit-refusal")
        _ = refusal
        let why =
            try await browser.script("return document.getElementById('edit-refusal').textContent") as? String ?? ""
        #expect(why.contains("nothing was written") && why.contains("Constants.xml:32"), "\(why)")
        let typed =
            try await browser.script(
                "var f=document.querySelector('#editor [data-field=\"size\"]');return f?f.value:'(no editor)'")
            as? String
        #expect(typed == "-3", "the editor lost what was typed")
        #expect(try Data(contentsOf: URL(fileURLWithPath: constants)) == original, "a refused value was written")
        // Fixed in the same editor, it is written.
        let generation = try await browser.script("return document.body.dataset.generation") as? String
        try await browser.type("22\u{E007}", into: try await browser.find("#editor [data-field=\"size\"]"))
        try await waitForGeneration(after: generation, browser)
        let text = try String(contentsOfFile: constants, encoding: .utf8)
        #expect(text.contains("<font name=\"fontTitle\" family=\"Helvetica Neue\" size=\"22\""), "\(text.prefix(0))")
        await browser.quit()
        await studio.stop()
    }

    /// The composed screen draws what a device would: sample content where the app gives the
    /// text, never an instance's id, and the outgoing bubble holds a message as the incoming does.
    @Test func theComposedScreenDrawsWhatADeviceWould() async throws {
        let studio = try RunningStudio()
        try await studio.start()
        let browser = try await WebDriver()
        try await browser.open("\(studio.base)/?token=\(studio.token)")
        _ = try await browser.wait(for: "[data-id=\"bubble_outgoing\"]")
        let texts =
            try await browser.script(
                "return Array.from(document.querySelectorAll('.el .text')).map(function(t){return t.textContent}).join('\\n')"
            ) as? String ?? ""
        for id in ["label message", "label timestamp", "label_message", "label_timestamp"] {
            #expect(!texts.contains(id), "an id drawn as text: \(texts)")
        }
        let inside =
            try await browser.script(
                """
                var b=document.querySelector('.el[data-id="bubble_outgoing"]').getBoundingClientRect();
                return Array.from(document.querySelectorAll('.el .text')).filter(function(t){var r=t.getBoundingClientRect();
                  return r.width>0&&r.left>=b.left&&r.right<=b.right+1&&r.top>=b.top&&r.bottom<=b.bottom+1}).map(function(t){return t.textContent}).join('|')
                """) as? String ?? ""
        #expect(!inside.isEmpty, "the outgoing bubble is drawn empty")
        await browser.quit()
        await studio.stop()
    }
}
