/// One entry of a list of records (such as one device client of `devices.clients`): its fields by name, as written.
public struct ConfigurationRecord: Sendable, Hashable {
    /// The fields, each a plain value.
    public let fields: [String: String]
    /// The line of the file the entry starts on, when it was read from a file.
    public let line: Int?

    /// Creates a record.
    public init(fields: [String: String], line: Int? = nil) {
        self.fields = fields
        self.line = line
    }
}
