import Dispatch

/// Runs seconds-long CPU or file work (reading a 100 000-row import, drawing a PDF) on a
/// Dispatch queue, so it does not hold one of the few cooperative threads every other call and
/// the socket need.
func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global(qos: .userInitiated).async {
            continuation.resume(with: Result { try work() })
        }
    }
}
