/// Upstream text as `doctor` prints it: one line, control characters dropped, at most 200 characters (an error
/// description or a problem's title is the server's, and the report is read in a terminal and by scripts).
enum DoctorText {
    static func quoted(_ text: String) -> String {
        let line = String(
            text.unicodeScalars.filter { !($0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}") }.map(Character.init)
        )
        return line.count > 200 ? String(line.prefix(199)) + "…" : line
    }
}
