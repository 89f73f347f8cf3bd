// Test-only helpers: compiled where the Testing module exists (not in a release build against
// the static Swift runtime, where the benchmarks need none of them).
#if canImport(Testing)
    import HostCore
    import Testing

    extension TestHost {
        /// A call that must succeed; a failure is recorded at the caller's line, then thrown.
        @discardableResult
        public func expectSuccess(_ method: String, _ params: JSONValue = [:], sourceLocation: SourceLocation = #_sourceLocation) async throws
            -> JSONValue
        {
            switch try await call(method, params) {
            case .success(let value): return value
            case .failure(let error):
                Issue.record("\(method) failed: \(error.message)", sourceLocation: sourceLocation)
                throw error
            }
        }

        /// Each call is refused with -32602 naming its parameter (`(method, params, param)`): the
        /// bad-input table every command's tests hold. A call that succeeds, or names another
        /// parameter, is recorded at the caller's line with the call.
        public func expectInvalidParams(_ cases: [(String, JSONValue, String)], sourceLocation: SourceLocation = #_sourceLocation) async throws {
            for (method, params, param) in cases {
                guard case .failure(let error) = try await call(method, params) else {
                    Issue.record("\(method) \(params.encodedString()) accepted", sourceLocation: sourceLocation)
                    continue
                }
                #expect(error.code == -32602, "\(method) \(params.encodedString()): \(error.message)", sourceLocation: sourceLocation)
                #expect(
                    error.data?["param"] == .string(param), "\(method) \(params.encodedString()): \(error.message)", sourceLocation: sourceLocation)
            }
        }

        /// A call that must fail; returns the error (a success is recorded at the caller's line).
        public func expectFailure(_ method: String, _ params: JSONValue, sourceLocation: SourceLocation = #_sourceLocation) async throws -> RPCError {
            switch try await call(method, params) {
            case .success(let value):
                Issue.record("\(method) succeeded: \(value.encodedString())", sourceLocation: sourceLocation)
                return RPCError(code: 0, message: "unexpected success")
            case .failure(let error): return error
            }
        }
    }

    /// The `RPCError` that `body` throws, or nil (recorded) when it succeeds or throws something else.
    public func rpcFailure(_ body: () async throws -> Any, sourceLocation: SourceLocation = #_sourceLocation) async -> RPCError? {
        do {
            _ = try await body()
            return nil
        } catch let error as RPCError {
            return error
        } catch {
            Issue.record("not an RPCError: \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }
#endif
