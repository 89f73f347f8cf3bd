import HostCore
import Hummingbird

/// A request's context: the paired device it comes from (set by `DeviceSessions`), its language,
/// and the CSRF token its forms carry.
struct WebContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    var device: WebDevices.Device?
    /// The session token as the cookie holds it: the CSRF token is derived from it.
    var session: String?
    var language = Language.en

    init(source: Source) { coreContext = .init(source: source) }

    /// A page's form is at most this long; a longer one is refused before it is read.
    var maxUploadSize: Int { 64 * 1024 }
}
