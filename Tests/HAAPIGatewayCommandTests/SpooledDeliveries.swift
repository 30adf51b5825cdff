import Foundation

/// The delivery ids in a spool file (its JSON, read as a receiver of the format would).
enum SpooledDeliveries {
    static func ids(in path: String) throws -> [String] {
        let entries = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [[String: Any]] ?? []
        return entries.compactMap { $0["id"] as? String }
    }
}
