import Foundation
import HostCore
import Hummingbird

/// Each route with its handler: the pages, the pairing, and the one action that calls a method.
struct Routes: Sendable {
    let host: AssistantHost
    let pages: Pages
    let gate: WebGate
    let settings: WebSettings
    let throttle = PairingThrottle()
    let pictureSlots = PictureSlots()
    let live: LiveNotices

    func add(to router: Router<WebContext>) {
        router.get("/") { request, context in try await today(request, context) }
        router.get("/pair/{token}") { request, context in try await pairing(request, context) }
        router.post("/pair") { request, context in try await pair(request, context) }
        router.post("/call") { request, context in try await call(request, context) }
        router.get("/settings") { request, context in try await settingsPage(request, context) }
        router.get("/notices") { request, context in try await notices(request, context) }
        router.get("/notices/live") { _, context in
            guard let device = context.device?.id, let stream = live.stream(for: device) else {
                return pages.message(.tooManyRequests, "error.heading", "error.too_many_streams", context)
            }
            return stream
        }
        for page in PageDeclaration.Page.allCases where page != .notices {
            router.get("/\(page.rawValue)") { request, context in try await sectionPage(page, request, context) }
        }
        router.get("/picture/{plugin}/{section}/{picture}") { request, context in try await picture(request, context) }
        router.get("/suggest/{plugin}/{section}/{field}") { request, context in try await suggest(request, context) }
        router.post("/settings/language") { request, context in try await language(request, context) }
        router.get("/assets/app.js") { _, _ in Self.asset(PackageResources.app_js, "text/javascript; charset=utf-8") }
        router.get("/assets/icon.svg") { _, _ in Self.asset(PackageResources.icon_svg, "image/svg+xml") }
        router.get("/sw.js") { _, _ in Self.asset(PackageResources.sw_js, "text/javascript; charset=utf-8") }
        router.get("/manifest.webmanifest") { _, _ in Self.asset(PackageResources.manifest_webmanifest, "application/manifest+json") }
    }

    /// How often a live page (Today, Printers) is drawn again while open.
    static let liveSeconds = 30

    static func asset(_ bytes: [UInt8], _ type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    // MARK: Today

    func today(_ request: Request, _ context: WebContext) async throws -> Response {
        let role = context.device?.role ?? .read
        let day = try await gate.call("today", [:], role: role, confirmed: false)
        let language = context.language
        var page = pages.frame(context, title: pages.catalogue.text("nav.today", language), path: "/", flash: Flash.take(request))
        let now = host.clock.now
        page["heading"] = pages.catalogue.text("today.heading", language, ["date": pages.day(now, language)])
        // Which classes apply: the teaching week by each study system.
        let weeks = (day["weeks"]?.arrayValue ?? []).compactMap { week -> String? in
            guard let plugin = week["plugin"]?.stringValue, let number = week["teaching_week"]?.intValue, let parity = week["parity"]?.stringValue
            else { return nil }
            return pages.catalogue.text(
                "today.week", language,
                ["system": plugin.uppercased(), "number": String(number), "parity": pages.catalogue.text("parity." + parity, language)])
        }
        page["weeks"] = weeks
        page["has_weeks"] = !weeks.isEmpty
        // Drawn again while open: a print's progress, a class that began.
        page["live"] = Self.liveSeconds
        page["items"] = (day["items"]?.arrayValue ?? []).map { item -> [String: Any] in
            var row: [String: Any] = [
                "kind": item["kind"]?.stringValue ?? "", "title": item["title"]?.stringValue ?? "",
                "kindName": pages.catalogue.text("kind." + (item["kind"]?.stringValue ?? ""), language),
                "overdue": item["overdue"]?.boolValue ?? false,
            ]
            row["place"] = Pages.orFalse(item["place"]?.stringValue)
            row["detail"] = Pages.orFalse(item["detail"]?.stringValue)
            row["completes"] = false
            let start = item["start"]?.stringValue.flatMap(ISO8601.date)
            let end = item["end"]?.stringValue.flatMap(ISO8601.date)
            if item["all_day"]?.boolValue == true {
                row["when"] = pages.catalogue.text("today.all_day", language)
            } else if let start {
                row["when"] = pages.clock(start, language) + (end.map { "–" + pages.clock($0, language) } ?? "")
            }
            if role == .full, let method = item["completes"]?.stringValue, let id = item["id"]?.stringValue {
                row["completes"] = ["method": method, "id": id]
            }
            return row
        }
        let problems = (day["problems"]?.arrayValue ?? []).map {
            ["plugin": $0["plugin"]?.stringValue ?? "", "message": $0["message"]?.stringValue ?? ""]
        }
        page["problems"] = problems
        page["has_problems"] = !problems.isEmpty
        var response = pages.render("today", page)
        if page["flash"] != nil { Flash.clear(&response, secure: settings.reachedOverHTTPS) }
        return response
    }

    // MARK: Pairing

    func pairing(_ request: Request, _ context: WebContext) async throws -> Response {
        let token = try context.parameters.require("token")
        guard await throttle.attempt(now: host.clock.now) else { return pages.message(.tooManyRequests, "pair.heading", "pair.throttled", context) }
        guard let pending = try await host.webDevices.pending(token) else { return pages.message(.notFound, "pair.heading", "pair.refused", context) }
        await throttle.succeeded()
        var page = pages.frame(context, title: pages.catalogue.text("pair.heading", context.language), path: "")
        page["question"] = pages.catalogue.text("pair.question", context.language, ["name": pending.name, "role": pending.role.rawValue])
        page["token"] = token
        return pages.render("pair", page)
    }

    func pair(_ request: Request, _ context: WebContext) async throws -> Response {
        guard await throttle.attempt(now: host.clock.now) else { return pages.message(.tooManyRequests, "pair.heading", "pair.throttled", context) }
        let form = try await Form.read(request, context, checkingCSRF: false)
        switch try await host.webDevices.redeem(form["token"] ?? "") {
        case .failure:
            return pages.message(.forbidden, "pair.heading", "pair.refused", context)
        case .success(let paired):
            await throttle.succeeded()
            var response = Response(status: .seeOther, headers: [.location: "/"])
            response.setCookie(DeviceSessions.sessionCookie(paired.session, secure: settings.reachedOverHTTPS))
            return response
        }
    }

    // MARK: Calls

    /// A form's method called with the form's other fields as its arguments; then back to the
    /// page it came from, which says what was done.
    func call(_ request: Request, _ context: WebContext) async throws -> Response {
        let form = try await Form.read(request, context, checkingCSRF: true)
        let back = Form.localPath(form["back"])
        guard let method = form["method"], let descriptor = gate.descriptor(method) else {
            return pages.message(.notFound, "error.heading", "error.not_found", context)
        }
        let arguments = Form.arguments(form, for: descriptor)
        do {
            let result = try await gate.call(method, arguments, role: context.device?.role ?? .read, confirmed: form["confirmed"] == "yes")
            // A form's check saved nothing: the page again, with what was typed and what would be saved.
            if let page = PageDeclaration.Page(rawValue: String(back.dropFirst())), let preview = previewOf(method),
                arguments[preview.param] == true
            {
                let previewed = SectionPages.PreviewedForm(method: method, typed: form, answer: result)
                return try await sectionPage(page, request, context, previewed: previewed)
            }
            let said = descriptor.says.flatMap { $0.said(result: result, arguments: arguments, zone: pages.zone) }
            var response = Response(status: .seeOther, headers: [.location: back])
            if let said {
                // A read device never sees an Undo it may not press.
                let undo = context.device?.role == .full ? descriptor.undo?.call(result: result, arguments: arguments) : nil
                response.setCookie(Flash.cookie(Flash.Message(text: said, undo: undo), secure: settings.reachedOverHTTPS))
            }
            return response
        } catch let refusal as WebGate.Refusal {
            switch refusal {
            case .needsConfirmation(let question):
                var page = pages.frame(context, title: pages.catalogue.text("confirm.heading", context.language), path: back)
                page["question"] = question
                page["back"] = back
                page["fields"] = form.filter { $0.key != "confirmed" }.sorted { $0.key < $1.key }.map { ["name": $0.key, "value": $0.value] }
                return pages.render("confirm", page)
            case .readOnly: return pages.message(.forbidden, "error.heading", "error.read_only", context)
            case .notForDevices(let why): return pages.failure(.forbidden, why, context)
            case .unknownMethod: return pages.message(.notFound, "error.heading", "error.not_found", context)
            }
        } catch let error as RPCError {
            let message = host.redactor.redact(error.message)
            // A form of a page sent back: drawn again with what was typed and the error beside its field; nothing was saved.
            if let page = PageDeclaration.Page(rawValue: String(back.dropFirst())), page != .notices {
                let failed = SectionPages.FailedForm(method: method, param: error.data?["param"]?.stringValue, message: message, typed: form)
                return try await sectionPage(page, request, context, failed: failed)
            }
            return pages.failure(.unprocessableContent, message, context)
        }
    }

    // MARK: The plugins' pages

    /// The check a page's form of `method` declares, if any.
    func previewOf(_ method: String) -> PageDeclaration.Form.Preview? {
        host.supervisors.lazy.flatMap(\.manifest.pages).compactMap(\.form).first { $0.method == method && $0.preview != nil }?.preview
    }

    func sectionPage(
        _ page: PageDeclaration.Page, _ request: Request, _ context: WebContext, failed: SectionPages.FailedForm? = nil,
        previewed: SectionPages.PreviewedForm? = nil
    ) async throws -> Response {
        let language = context.language
        let title = pages.catalogue.text("nav.\(page.rawValue)", language)
        var values = pages.frame(context, title: title, path: "/\(page.rawValue)", flash: Flash.take(request))
        values["heading"] = title
        let weekStart = request.uri.queryParameters.get("week").flatMap { DateOnly(String($0)) }
        let sections = SectionPages(host: host, pages: pages, gate: gate, failed: failed, weekStart: weekStart, previewed: previewed)
        let drawn = await sections.values(page, context)
        values["sections"] = drawn
        // A page with a picture that follows something (a printer) follows it as a whole.
        let follows = drawn.contains { ($0["pictures"] as? [[String: Any]] ?? []).contains { $0["refresh"] is String } }
        values["live"] = follows ? Self.liveSeconds : false
        let grid = drawn.compactMap { $0["gridItems"] as? [SectionPages.GridItem] }
        if !grid.isEmpty { values["week"] = sections.week(grid.flatMap { $0 }, context) }
        var response = pages.render("sections", values, status: failed == nil ? .ok : .unprocessableContent)
        if values["flash"] != nil { Flash.clear(&response, secure: settings.reachedOverHTTPS) }
        return response
    }

    // MARK: Files and suggestions a section declares

    /// A number in the address (a section's or a field's place in its declaration).
    static func number(_ name: String, _ context: WebContext) -> Int? {
        guard let text = context.parameters.get(name) else { return nil }
        return Int(text)
    }

    /// A section's picture or file (`PageDeclaration.Picture`), made now for this device.
    func picture(_ request: Request, _ context: WebContext) async throws -> Response {
        let weekStart = request.uri.queryParameters.get("week").flatMap { DateOnly(String($0)) }
        let sections = SectionPages(host: host, pages: pages, gate: gate, weekStart: weekStart)
        guard let plugin = context.parameters.get("plugin"), let index = Self.number("section", context),
            let number = Self.number("picture", context), let section = sections.section(plugin: plugin, index: index),
            section.pictures.indices.contains(number)
        else { return pages.message(.notFound, "error.heading", "error.not_found", context) }
        let item = request.uri.queryParameters.get("item").map { String($0) }
        let picture = section.pictures[number]
        let device = context.device?.id ?? ""
        guard await pictureSlots.take(device) else {
            return Response(
                status: .tooManyRequests, headers: [.contentType: "text/plain; charset=utf-8", .retryAfter: "5"],
                body: .init(byteBuffer: ByteBuffer(string: "Too many pictures are waiting to be made; try again in a moment.")))
        }
        let answer = await madePicture(picture, section, sections, item: item, context)
        await pictureSlots.give(device)
        return answer
    }

    func madePicture(
        _ picture: PageDeclaration.Picture, _ section: PageDeclaration, _ sections: SectionPages, item: String?, _ context: WebContext
    ) async -> Response {
        do {
            // Only an item the section is shown for: a printer this daemon has.
            if section.each != nil {
                guard let item, try await sections.items(section).contains(item) else {
                    return pages.message(.notFound, "error.heading", "error.not_found", context)
                }
            }
            let bytes = try await gate.produce(picture, sections.arguments(picture.params, section, item: item))
            var headers: HTTPFields = [.contentType: picture.kind.contentType]
            if picture.download {
                let name = picture.method.replacingOccurrences(of: ".", with: "-") + "." + picture.kind.rawValue
                headers[.contentDisposition] = "attachment; filename=\"\(name)\""
            }
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        } catch {
            // Said in plain words (an image's place shows its label instead); the method's message is redacted.
            let message = host.redactor.redact(ErrorText.sentence(error))
            return Response(
                status: .badGateway, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: message)))
        }
    }

    /// The values a form's field offers for what was typed (`PageDeclaration.Form.Suggest`), as JSON: `[{value, label}]`.
    func suggest(_ request: Request, _ context: WebContext) async throws -> Response {
        let sections = SectionPages(host: host, pages: pages, gate: gate)
        guard let plugin = context.parameters.get("plugin"), let index = Self.number("section", context),
            let number = Self.number("field", context), let fields = sections.section(plugin: plugin, index: index)?.form?.fields,
            fields.indices.contains(number), let suggest = fields[number].suggest
        else { return pages.message(.notFound, "error.heading", "error.not_found", context) }
        let typed = String((request.uri.queryParameters.get("q").map { String($0) } ?? "").trimmingCharacters(in: .whitespaces).prefix(64))
        var offered: [JSONValue] = []
        if typed.count >= 2, let answer = try? await gate.call(suggest.method, [suggest.query: .string(typed)], role: .read, confirmed: false) {
            offered = (ShortAnswer.member(suggest.member, of: answer)?.arrayValue ?? []).prefix(10).compactMap { item in
                guard let value = ShortAnswer.member(suggest.value, of: item)?.stringValue else { return nil }
                let label = suggest.label.compactMap { ShortAnswer.member($0, of: item)?.stringValue }.joined(separator: ", ")
                return ["value": .string(value), "label": .string(label)]
            }
        }
        return Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(string: JSONValue.array(offered).encodedString())))
    }

    /// The latest notices, newest first.
    func notices(_ request: Request, _ context: WebContext) async throws -> Response {
        let language = context.language
        var values = pages.frame(context, title: pages.catalogue.text("nav.notices", language), path: "/notices")
        let cells = Cells(pages: pages, language: language, now: host.clock.now)
        let list = try await gate.call("notifications.list", ["limit": 50], role: .read, confirmed: false)
        values["notices"] = (list.arrayValue ?? []).map { notice -> [String: Any] in
            [
                "when": cells.text(notice["time"] ?? .null, .when), "title": notice["title"]?.stringValue ?? "",
                "body": notice["body"]?.stringValue ?? "", "severity": notice["severity"]?.stringValue ?? "info",
            ]
        }
        return pages.render("notices", values)
    }

    // MARK: Settings

    func settingsPage(_ request: Request, _ context: WebContext) async throws -> Response {
        let language = context.language
        var page = pages.frame(context, title: pages.catalogue.text("nav.settings", language), path: "/settings", flash: Flash.take(request))
        page["languages"] = Language.allCases.map {
            ["code": $0.rawValue, "name": pages.catalogue.text("language." + $0.rawValue, language), "selected": $0 == language]
        }
        let devices = try await gate.call("web.devices", [:], role: .read, confirmed: false)
        let canManage = context.device?.role == .full
        page["devices"] = (devices.arrayValue ?? []).map { device -> [String: Any] in
            let lastSeen = device["last_seen"]?.stringValue.flatMap(ISO8601.date).map { pages.day($0, language) + " " + pages.clock($0, language) }
            return [
                "id": device["id"]?.stringValue ?? "", "name": device["name"]?.stringValue ?? "", "role": device["role"]?.stringValue ?? "",
                "lastSeen": lastSeen ?? "", "current": device["id"]?.stringValue == context.device?.id, "canManage": canManage,
            ]
        }
        var response = pages.render("settings", page)
        if page["flash"] != nil { Flash.clear(&response, secure: settings.reachedOverHTTPS) }
        return response
    }

    func language(_ request: Request, _ context: WebContext) async throws -> Response {
        let form = try await Form.read(request, context, checkingCSRF: true)
        var response = Response(status: .seeOther, headers: [.location: "/settings"])
        if let chosen = form["language"].flatMap(Language.init(rawValue:)) {
            response.setCookie(
                Cookie(
                    name: DeviceSessions.languageCookie, value: chosen.rawValue, maxAge: 365 * 86_400, path: "/", secure: settings.reachedOverHTTPS,
                    httpOnly: true, sameSite: .strict))
        }
        return response
    }
}
