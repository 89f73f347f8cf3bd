import PluginKit
import Testing

/// A parameter declared with its default is read non-optional: the value given, else the
/// default written once in the declaration (which help and rpc.discover publish too).
struct DefaultedParamTests {
    static let limit = Param<Int64>.defaulted("limit", .integer(min: 1, max: 100), default: 50, help: "at most this many")
    static let dryRun = Param<Bool>.defaulted("dry_run", default: true, help: "only list")

    @Test func theGivenValueElseTheDeclaredDefault() throws {
        let specs = [Self.limit.spec, Self.dryRun.spec]
        #expect(Self.limit.spec.defaultValue == 50 && Self.dryRun.spec.defaultValue == true, "the spec publishes the default")
        let given = try ParamValidator.validate(["limit": 7, "dry_run": false], against: specs, method: "t")
        #expect(given[Self.limit] == 7 && given[Self.dryRun] == false)
        let omitted = try ParamValidator.validate([:], against: specs, method: "t")
        #expect(omitted[Self.limit] == 50 && omitted[Self.dryRun] == true)
        // Read where the validator did not run (a plugin's own call): the declared default still.
        #expect(Params([:])[Self.limit] == 50)
        #expect(throws: RPCError.invalidParam("limit", "must be at most 100, got 500")) {
            try ParamValidator.validate(["limit": 500], against: specs, method: "t")
        }
    }
}
