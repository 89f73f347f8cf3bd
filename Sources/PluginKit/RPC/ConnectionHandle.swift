/// What a call can know of, and send to, the connection it came from.
public protocol ConnectionHandle: AnyObject, Sendable {
    var connectionID: UInt64 { get }
    var peer: PeerCredentials? { get }
    /// A JSON-RPC notification (`progress`) to this connection.
    func sendNotification(method: String, params: JSONValue)
    /// A `notice` notification; bounded per connection, dropping the oldest when the reader is slow.
    func deliverNotice(_ params: JSONValue)
    var droppedNotices: Int { get }
}

public struct PeerCredentials: Sendable, Hashable {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32
    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }
}
