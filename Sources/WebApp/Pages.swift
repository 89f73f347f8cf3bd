import Crypto
import Foundation
import HostCore
import Hummingbird
import Mustache

/// The templates, the style sheet and the words, all embedded in the binary, and the pages drawn
/// from them. A page is HTML that works without JavaScript.
struct Pages: Sendable {
    let library: MustacheLibrary
    let css: String
    /// The style sheet's SHA-256, which the CSP allows as the one inline style.
    let styleHash: String
    let zone: TimeZone
    let catalogue = Catalogue.shared

    /// A value a template tests with a section, or false. Mustache looks a name an item lacks up
    /// in the page around it, so an item says "none" itself rather than leaving the name out.
    static func orFalse(_ text: String?) -> Any { text ?? false }

    init(host: AssistantHost) throws {
        var library = MustacheLibrary()
        let templates: [(String, [UInt8])] = [
            ("head", PackageResources.head_mustache), ("foot", PackageResources.foot_mustache), ("hidden", PackageResources.hidden_mustache),
            ("today", PackageResources.today_mustache), ("message", PackageResources.message_mustache),
            ("pair", PackageResources.pair_mustache), ("confirm", PackageResources.confirm_mustache),
            ("settings", PackageResources.settings_mustache), ("sections", PackageResources.sections_mustache),
            ("notices", PackageResources.notices_mustache),
        ]
        for (name, bytes) in templates { try library.register(String(decoding: bytes, as: UTF8.self), named: name) }
        self.library = library
        css = String(decoding: PackageResources.app_css, as: UTF8.self)
        styleHash = Data(SHA256.hash(data: Data(css.utf8))).base64EncodedString()
        zone = host.configuration.timeZone
        let declared = Set(host.supervisors.flatMap { $0.manifest.pages.map(\.page) } + [.notices])
        navigation =
            [("nav.today", "/")] + PageDeclaration.Page.allCases.filter(declared.contains).map { ("nav.\($0.rawValue)", "/\($0.rawValue)") }
            + [("nav.settings", "/settings")]
    }

    /// The navigation: Today, the pages some plugin has sections for (Notices always), Settings.
    let navigation: [(key: String, href: String)]

    /// What every page's frame needs: the words, the style, the navigation, the form's hidden fields.
    func frame(_ context: WebContext, title: String, path: String, flash: Flash.Message? = nil) -> [String: Any] {
        var values: [String: Any] = [
            "lang": context.language.rawValue, "t": NestedWords(catalogue.all(context.language)), "title": title, "css": css, "path": path,
        ]
        if let session = context.session {
            values["paired"] = true
            // Shown only by the service worker, on a copy served without a network.
            values["asOf"] = catalogue.text("offline.as_of", context.language, ["time": clock(Date(), context.language)])
            values["csrf"] = DeviceSessions.csrfToken(session: session)
            values["nav"] = navigation.map { ["label": catalogue.text($0.key, context.language), "href": $0.href, "current": $0.href == path] }
        }
        if let flash {
            let undo: Any =
                flash.undo.map { undo in
                    [
                        "method": undo.method,
                        "arguments": undo.arguments.sorted { $0.key < $1.key }.map {
                            ["name": $0.key, "value": $0.value.stringValue ?? $0.value.encodedString()]
                        },
                    ] as [String: Any]
                } ?? false
            values["flash"] = ["text": flash.text, "undo": undo]
        }
        return values
    }

    func render(_ template: String, _ values: [String: Any], status: HTTPResponse.Status = .ok) -> Response {
        let html = library.render(values, withTemplate: template) ?? ""
        return Response(
            status: status, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    func message(_ status: HTTPResponse.Status, _ heading: String, _ text: String, _ context: WebContext, values: [String: String] = [:])
        -> Response
    {
        var page = frame(context, title: catalogue.text(heading, context.language), path: "")
        page["heading"] = catalogue.text(heading, context.language)
        page["text"] = catalogue.text(text, context.language, values)
        return render("message", page, status: status)
    }

    /// An error in words already (the daemon's own message, redacted).
    func failure(_ status: HTTPResponse.Status, _ text: String, _ context: WebContext) -> Response {
        var page = frame(context, title: catalogue.text("error.heading", context.language), path: "")
        page["heading"] = catalogue.text("error.heading", context.language)
        page["text"] = text
        return render("message", page, status: status)
    }

    /// A time of day in the daemon's zone, as the language writes it.
    func clock(_ date: Date, _ language: Language) -> String {
        date.formatted(Date.FormatStyle(date: .omitted, time: .shortened, locale: language.locale, timeZone: zone))
    }

    /// A day in a row: "Sat 28 Nov", "so 28. 11."; a far one with its year.
    func shortDay(_ date: Date, _ language: Language) -> String {
        var style = Date.FormatStyle(locale: language.locale, timeZone: zone).weekday(.abbreviated).day().month(.abbreviated)
        if abs(date.timeIntervalSinceNow) > 180 * 86_400 { style = style.year() }
        return date.formatted(style)
    }

    /// A day as a heading: "Saturday 28 November", "sobota 28. listopadu".
    func day(_ date: Date, _ language: Language) -> String {
        var style = Date.FormatStyle(locale: language.locale, timeZone: zone)
        style = style.weekday(.wide).day().month(.wide)
        return date.formatted(style)
    }
}

/// The catalogue as nested keys, so a template writes `{{t.nav.today}}` for `nav.today`.
struct NestedWords: @unchecked Sendable, MustacheParent {
    let words: [String: String]
    let prefix: String

    init(_ words: [String: String], prefix: String = "") {
        self.words = words
        self.prefix = prefix
    }

    func child(named name: String) -> Any? {
        let key = prefix.isEmpty ? name : "\(prefix).\(name)"
        if let word = words[key] { return word }
        return words.keys.contains { $0.hasPrefix(key + ".") } ? NestedWords(words, prefix: key) : nil
    }
}
