import Foundation

/// What a paired device may call, checked before the dispatcher, which then validates, runs and
/// redacts as it does for the socket: the web app implements no command of its own.
///
/// A phone is not the daemon's user at its keyboard: it names no file on this machine, reaches no
/// person-only method (the vault, pairing itself), a `read` device calls only reads, and a call
/// that is destructive with its arguments runs only once the page's confirmation step was taken.
public struct WebGate: Sendable {
    let host: AssistantHost

    public init(host: AssistantHost) { self.host = host }

    /// Why a call is not made.
    public enum Refusal: Error, Equatable {
        case unknownMethod(String)
        /// Person-only, or naming a file: never from a device.
        case notForDevices(String)
        /// A `read` device's write.
        case readOnly(String)
        /// Destructive with these arguments: the question the confirmation step asks.
        case needsConfirmation(question: String)
    }

    /// A path, or a list of them at any depth.
    static func namesFiles(_ type: ParamType) -> Bool {
        switch type {
        case .path: true
        case .array(let element?): namesFiles(element)
        default: false
        }
    }

    /// The method's declaration, for a page that shows its form or its question.
    public func descriptor(_ method: String) -> CommandDescriptor? { host.dispatcher.methods[method]?.descriptor }

    /// Whether the call is destructive with these arguments (declared so, or made so by them).
    public static func isDestructive(_ descriptor: CommandDescriptor, _ arguments: [String: JSONValue]) -> Bool {
        descriptor.effect == .destructive || descriptor.destructiveWhen.contains { $0.holds(for: arguments) }
    }

    /// Checks the call against the device's role, then makes it; the result as the socket would
    /// answer it (redacted).
    public func call(_ method: String, _ arguments: [String: JSONValue], role: WebDevices.Role, confirmed: Bool) async throws -> JSONValue {
        guard let descriptor = descriptor(method) else { throw Refusal.unknownMethod(method) }
        if let reason = descriptor.personOnly { throw Refusal.notForDevices("\(method) is not offered to devices: \(reason)") }
        for spec in descriptor.params where arguments[spec.name] != nil {
            if Self.namesFiles(spec.type) {
                throw Refusal.notForDevices("'\(spec.name)' names a file on the daemon's machine, which a device may not do")
            }
            // A secret is given at the daemon's own terminal: a page would have to send it back and forth.
            if spec.type == .secret { throw Refusal.notForDevices("'\(spec.name)' is a secret, given with assistantctl, not on a page") }
        }
        // Judged with the defaults filled in, as the call will run: a default can make a call destructive.
        var effective = arguments
        for spec in descriptor.params where effective[spec.name] == nil { effective[spec.name] = spec.defaultValue }
        let destructive = Self.isDestructive(descriptor, effective)
        // A read device makes no change, including a read that its arguments make destructive (a mail with dry_run=false).
        if role == .read, descriptor.effect != .read || destructive {
            throw Refusal.readOnly("this device may only read (paired with role read)")
        }
        if destructive, !confirmed {
            throw Refusal.needsConfirmation(question: await question(descriptor, arguments))
        }
        let result = try await host.dispatcher.call(method, params: .object(arguments), id: nil, connection: nil)
        return host.redactor.redact(try result.jsonValue())
    }

    /// The question the confirmation step asks, filled from the arguments and, where the command
    /// names one, from the read that describes what it acts on (the exam term, the task).
    func question(_ descriptor: CommandDescriptor, _ arguments: [String: JSONValue]) async -> String {
        guard let confirm = descriptor.confirm else { return "Run \(descriptor.name)?" }
        var details: [String: JSONValue] = [:]
        if let method = confirm.details, let read = self.descriptor(method), read.effect == .read, read.personOnly == nil {
            let known = Set(read.params.map(\.name))
            let answer = try? await host.dispatcher.call(
                method, params: .object(arguments.filter { known.contains($0.key) }), id: nil, connection: nil)
            details = (try? answer?.jsonValue()).flatMap { host.redactor.redact($0).objectValue } ?? [:]
        }
        return confirm.filled(arguments: arguments, details: details) ?? "Run \(descriptor.name)?"
    }

    /// The most a page's file may hold (a logbook's PDF of thousands of flights is a few MB).
    public static let maxFileBytes = 32 << 20

    /// A file a plugin declares for a page (`PageDeclaration.Picture`), made by its method into a
    /// fresh file the app names in a private folder, read back and removed. The device names no
    /// file and nothing is overwritten: the only thing written is the app's own file, so a `read`
    /// device may ask for it (a chart, a webcam's picture) as it may for the read beside it.
    public func produce(_ picture: PageDeclaration.Picture, _ arguments: [String: JSONValue]) async throws -> [UInt8] {
        guard let descriptor = descriptor(picture.method) else { throw Refusal.unknownMethod(picture.method) }
        if let reason = descriptor.personOnly { throw Refusal.notForDevices("\(picture.method) is not offered to devices: \(reason)") }
        guard descriptor.params.contains(where: { $0.name == picture.path && $0.type == .path }) else {
            throw Refusal.notForDevices("\(picture.method) has no file parameter '\(picture.path)'")
        }
        for spec in descriptor.params where arguments[spec.name] != nil && (Self.namesFiles(spec.type) || spec.type == .secret) {
            throw Refusal.notForDevices("'\(spec.name)' is given by the page's declaration only")
        }
        var effective = arguments
        for spec in descriptor.params where effective[spec.name] == nil { effective[spec.name] = spec.defaultValue }
        if Self.isDestructive(descriptor, effective) { throw Refusal.readOnly("\(picture.method) would change more than its own file") }
        let folder = try PrivateFolder(purpose: "web")
        defer { folder.remove() }
        let file = folder.path + "/file." + picture.kind.rawValue
        var withFile = arguments
        withFile[picture.path] = .string(file)
        _ = try await host.dispatcher.call(picture.method, params: .object(withFile), id: nil, connection: nil)
        guard let bytes = try await folder.read(file, atMost: Self.maxFileBytes) else {
            throw RPCError.invalidParams("the file made for the page is larger than \(Self.maxFileBytes >> 20) MB")
        }
        return bytes
    }
}
