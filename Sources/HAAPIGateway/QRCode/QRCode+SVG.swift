extension QRCode {
    /// The code as an SVG image for a page: one path of unit squares for the dark modules (runs of a row merged), on a
    /// white square with a quiet zone of `quietZone` modules; presentation attributes only (no `style`, no script), so
    /// it renders under the gateway's CSP. `label` is its accessible name.
    public func svg(label: String, quietZone: Int = 4) -> String {
        let width = size + 2 * quietZone
        var path = ""
        for (row, modules) in modules.enumerated() {
            var column = 0
            while column < size {
                guard modules[column] else {
                    column += 1
                    continue
                }
                let start = column
                while column < size, modules[column] { column += 1 }
                path += "M\(start + quietZone) \(row + quietZone)h\(column - start)v1h-\(column - start)z"
            }
        }
        // Escaped byte by byte like every value of a page: `replacingOccurrences` compares whole characters, and an
        // upstream title with a quote joined by a combining mark would end the attribute.
        let name = HTMLEscaping.escape(label)
        return
            ##"<svg xmlns="http://www.w3.org/2000/svg" class="qr-code" viewBox="0 0 \##(width) \##(width)" role="img" aria-label="\##(name)" shape-rendering="crispEdges"><rect width="\##(width)" height="\##(width)" fill="#fff"/><path fill="#000" d="\##(path)"/></svg>"##
    }
}
