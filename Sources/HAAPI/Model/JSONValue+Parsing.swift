import Foundation

extension JSONValue {
    /// Parses JSON text strictly (RFC 8259), with bounded nesting depth.
    /// - Parameter data: The JSON bytes.
    /// - Throws: ``HAAPIError/Code/malformedResponse`` with the byte offset where parsing stopped (never the content).
    public static func parse(_ data: Data) throws(HAAPIError) -> JSONValue {
        do throws(JSONParser.SyntaxError) {
            return try JSONParser.parse(data)
        } catch {
            throw .malformed("the text is not valid JSON (\(data.count) bytes, stopped at byte \(error.offset))")
        }
    }
}
