import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why this process cannot read a path, in words that name what an operator changes: the file or directory missing,
/// or its mode and owner against the user the gateway runs as (a service started by systemd with `DynamicUser`, or a
/// container's user, is rarely the user who installed the files).
enum FileAccess {
    /// Why `path` cannot be read (or, with `directory`, listed) by this process, to follow "cannot read PATH: "; nil
    /// when it can.
    static func reason(reading path: String, directory: Bool = false) -> String? {
        if access(path, directory ? (R_OK | X_OK) : R_OK) == 0 { return nil }
        let failure = errno
        // A directory on the way that this process may not enter hides everything below it.
        if let closed = closedAncestor(of: path) {
            return "the directory \(closed) is \(describe(closed)), and \(runningAs) may not enter it"
        }
        if failure == ENOENT || failure == ENOTDIR { return "it does not exist" }
        if failure == EACCES { return "it is \(describe(path)), and \(runningAs) may not read it" }
        return String(cString: strerror(failure))
    }

    /// Why this process cannot create and replace files in `directory`, to follow "cannot write in DIRECTORY: "; nil
    /// when it can.
    static func reason(writingIn directory: String) -> String? {
        if access(directory, W_OK | X_OK) == 0 { return nil }
        let failure = errno
        if let closed = closedAncestor(of: directory) {
            return "the directory \(closed) is \(describe(closed)), and \(runningAs) may not enter it"
        }
        if failure == ENOENT || failure == ENOTDIR { return "it does not exist" }
        if failure == EACCES { return "it is \(describe(directory)), and \(runningAs) may not write in it" }
        if failure == EROFS { return "it is on a read-only file system" }
        return String(cString: strerror(failure))
    }

    /// "cannot read PATH: why" (the reason, when one can be named).
    static func cannotRead(_ path: String, directory: Bool = false) -> String {
        "cannot read \(path)" + (reason(reading: path, directory: directory).map { ": \($0)" } ?? "")
    }

    /// The user and group this process runs as, for messages: `uid 61234 (gid 61234)` or `user haapi (uid 10001, gid 10001)`.
    static var runningAs: String {
        let uid = getuid()
        let gid = getgid()
        if let entry = getpwuid(uid), let name = entry.pointee.pw_name { return "user \(String(cString: name)) (uid \(uid), gid \(gid))" }
        return "uid \(uid) (gid \(gid))"
    }

    /// `mode 0640, owned by root:root`.
    static func describe(_ path: String) -> String {
        var information = stat()
        guard stat(path, &information) == 0 else { return "not there" }
        let mode = String(information.st_mode & 0o7777, radix: 8)
        let padded = String(repeating: "0", count: max(0, 4 - mode.count)) + mode
        return "mode \(padded), owned by \(userName(information.st_uid)):\(groupName(information.st_gid))"
    }

    /// The nearest directory above `path` that exists and that this process may not enter, if any.
    private static func closedAncestor(of path: String) -> String? {
        var components = URL(fileURLWithPath: path).standardizedFileURL.pathComponents
        components.removeLast()
        var current = ""
        for component in components {
            current = current.isEmpty ? component : (current == "/" ? "/\(component)" : "\(current)/\(component)")
            var information = stat()
            guard stat(current, &information) == 0 else { return nil }
            if access(current, X_OK) != 0 { return current }
        }
        return nil
    }

    private static func userName(_ uid: uid_t) -> String {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return "\(uid)" }
        return String(cString: name)
    }

    private static func groupName(_ gid: gid_t) -> String {
        guard let entry = getgrgid(gid), let name = entry.pointee.gr_name else { return "\(gid)" }
        return String(cString: name)
    }
}
