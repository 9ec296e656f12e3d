/// An optional that a JSON body writes as `null` when absent instead of leaving its key out (synthesized `Encodable`
/// skips nil optionals): for bodies a reader asks by key, the review desk's script and an agent reading the manifest.
public struct Nullable<Wrapped: Encodable & Sendable>: Encodable, Sendable {
    public let value: Wrapped?

    public init(_ value: Wrapped?) { self.value = value }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(value)
    }
}
