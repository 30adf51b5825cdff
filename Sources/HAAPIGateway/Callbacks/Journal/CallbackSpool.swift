import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The callback spool file (`callbacks.spoolFile`, mode 0600: it may hold tokens) as a journal: a delivery is appended
/// (and fsync'd) before its first attempt, and a line saying it is done is appended when its sink accepted it or it was
/// given up, so that each change costs one line, not a rewrite of every pending delivery (a failing webhook with
/// thousands pending made the rewrite the sign-ins' bottleneck: `scripts/soak --faults`). When done lines outnumber
/// the pending deliveries, the file is rewritten with only those (atomically); with none pending it is removed.
///
/// Reading replays the lines; a last line cut short by a crash is ignored (its delivery was not attempted yet, or its
/// done line is lost and it is delivered again with the same id, which receivers deduplicate). A spool written as a
/// JSON array by an earlier version is read too.
struct CallbackSpool {
    let path: String
    /// Lines in the file since it was last rewritten.
    private var lines = 0
    /// Deliveries in the file not done yet.
    private var pending = 0

    init(path: String) {
        self.path = path
    }

    #if canImport(Glibc)
    private static let systemWrite = Glibc.write
    #else
    private static let systemWrite = Darwin.write
    #endif

    /// Appends deliveries not done yet, durably (fsync) before returning.
    mutating func add(_ entries: [SpooledDelivery]) throws(GatewayError) {
        guard !entries.isEmpty else { return }
        try append(entries.map(SpoolRecord.added), durably: true)
        pending += entries.count
    }

    /// Appends that a delivery is done for a sink; true when the file should now be rewritten (``rewrite(_:)``).
    mutating func markDone(id: String, sink: String) throws(GatewayError) -> Bool {
        // No fsync: a done line lost to a power cut means one more delivery with the same id, never a lost one.
        try append([.done(id: id, sink: sink)], durably: false)
        pending = max(0, pending - 1)
        return pending == 0 || lines > 2 * pending + 64
    }

    /// Rewrites the file with exactly `entries` (atomically), or removes it when there are none.
    mutating func rewrite(_ entries: [SpooledDelivery]) throws(GatewayError) {
        if entries.isEmpty {
            if FileManager.default.fileExists(atPath: path), unlink(path) != 0 {
                throw GatewayError(.internalError, "cannot remove \(path)")
            }
        } else {
            try AtomicFile.write(try Self.encode(entries.map(SpoolRecord.added)), to: path)
        }
        lines = entries.count
        pending = entries.count
    }

    /// The deliveries not done yet, in the order they were added.
    static func read(_ path: String) throws -> [SpooledDelivery] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        if data.first(where: { !$0.isWhitespace }) == UInt8(ascii: "[") {
            return try JSONDecoder().decode([SpooledDelivery].self, from: data)
        }
        var entries: [SpooledDelivery] = []
        var done: Set<[String]> = []
        let decoder = JSONDecoder()
        let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
        for (index, line) in lines.enumerated() {
            guard let record = try? decoder.decode(SpoolRecord.self, from: Data(line)) else {
                // Only the last line can be cut short by a crash; anything else is damage worth stopping for.
                if index == lines.count - 1 { break }
                throw GatewayError(.internalError, "line \(index + 1) of \(path) is not a spool record")
            }
            if let entry = record.add { entries.append(entry) }
            if let id = record.doneID, let sink = record.doneSink { done.insert([id, sink]) }
        }
        return entries.filter { !done.contains([$0.id, $0.sink]) }
    }

    private mutating func append(_ records: [SpoolRecord], durably: Bool) throws(GatewayError) {
        let bytes = try Self.encode(records)
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw GatewayError(.internalError, "cannot open \(path)") }
        defer { close(descriptor) }
        var written = 0
        let ok = bytes.withUnsafeBytes { buffer -> Bool in
            while written < buffer.count {
                let result = Self.systemWrite(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if result <= 0 { return false }
                written += result
            }
            return !durably || fsync(descriptor) == 0
        }
        guard ok else { throw GatewayError(.internalError, "cannot append to \(path)") }
        lines += records.count
    }

    private static func encode(_ records: [SpoolRecord]) throws(GatewayError) -> [UInt8] {
        let encoder = JSONEncoder()
        var bytes: [UInt8] = []
        for record in records {
            guard let line = try? encoder.encode(record) else { throw GatewayError(.internalError, "a spool record could not be encoded") }
            bytes += line
            bytes.append(UInt8(ascii: "\n"))
        }
        return bytes
    }
}

extension UInt8 {
    fileprivate var isWhitespace: Bool { self == 0x20 || self == 0x0A || self == 0x0D || self == 0x09 }
}
