#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The soft limit on open files raised to the hard limit at start, so a burst of connections
/// does not run the daemon out of descriptors at the common soft default of 1 024. When `accept`
/// still fails with EMFILE, NIO's accept back-off (installed by the bootstrap) pauses accepting
/// briefly while the open connections go on being served.
enum FileLimit {
    /// (before, after); nil when the limit cannot be read.
    static func raiseToHard() -> (before: UInt64, after: UInt64)? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        let before = UInt64(limit.rlim_cur)
        guard limit.rlim_cur < limit.rlim_max else { return (before, before) }
        limit.rlim_cur = limit.rlim_max
        guard setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return (before, before) }
        return (before, UInt64(limit.rlim_max))
    }
}
