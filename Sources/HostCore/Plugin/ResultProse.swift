// TEMPORARY while the manifests gain their result schemas: a prose result is a schema with a
// description only. Removed once every command declares its schema.
extension JSONSchema: ExpressibleByStringInterpolation {
    public init(stringLiteral value: String) { self.init(json: ["description": .string(value)]) }
}
