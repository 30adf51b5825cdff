extension QRCode {
    /// The code for a terminal, two rows of modules per line with half-block characters and a quiet zone of
    /// `quietZone` modules. Light modules are drawn (the usual terminal has a dark background), so scanners see dark
    /// modules as the gaps.
    public func terminalString(quietZone: Int = 2) -> String {
        let width = size + 2 * quietZone
        func light(_ x: Int, _ y: Int) -> Bool {
            let column = x - quietZone
            let row = y - quietZone
            guard (0..<size).contains(column), (0..<size).contains(row) else { return true }
            return !modules[row][column]
        }
        var lines: [String] = []
        for y in stride(from: 0, to: width, by: 2) {
            var line = ""
            for x in 0..<width {
                let top = light(x, y)
                let bottom = y + 1 < width ? light(x, y + 1) : false
                line.append(top ? (bottom ? "█" : "▀") : (bottom ? "▄" : " "))
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
