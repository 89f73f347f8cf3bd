/// A result struct that is the only declaration of its result: its stored properties give the
/// keys (snake_case), the encoding and the JSON Schema, and their `///` comments the schema's
/// descriptions. An optional property is written as `null` when missing.
///
///     @ResultObject
///     struct Snoozed: CallResult {
///         let id: String
///         /// when the reminder comes again
///         @Schema(.dateTime) let remindAt: String
///     }
@attached(
    extension, conformances: ResultObjectDescribing, Encodable,
    names: named(CodingKeys), named(encode(to:)), named(resultMembers), named(resultSchema))
public macro ResultObject(_ description: String? = nil) = #externalMacro(module: "ResultMacros", type: "ResultObjectMacro")

/// The field's schema when its type says too little (a string that holds a date).
@attached(peer) public macro Schema(_ schema: JSONSchema) = #externalMacro(module: "ResultMacros", type: "ResultFieldMark")

/// The optional field is left out when missing, rather than written as `null` (`key?` in the schema).
@attached(peer) public macro OmitWhenNil() = #externalMacro(module: "ResultMacros", type: "ResultFieldMark")

/// The field's own members join this object (a shared group of fields).
@attached(peer) public macro Flatten() = #externalMacro(module: "ResultMacros", type: "ResultFieldMark")

/// The key when snake_case of the name is not it.
@attached(peer) public macro Key(_ key: String) = #externalMacro(module: "ResultMacros", type: "ResultFieldMark")

/// A computed property that is part of the result (worked out as it is written).
@attached(peer) public macro InResult() = #externalMacro(module: "ResultMacros", type: "ResultFieldMark")

/// A stored property that the result leaves out: what Swift readers of the value need (the day
/// it was asked for).
@attached(peer) public macro NotInResult() = #externalMacro(module: "ResultMacros", type: "ResultFieldMark")
