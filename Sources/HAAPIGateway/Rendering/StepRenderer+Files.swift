import Foundation

extension StepRenderer {
    /// Writes `page` as `directory/index.html` and the assets it links beside it, in `directory/assets/` (the stylesheet,
    /// the theme, the scripts and the logo), so that the page opens styled: what `render --output DIR` does.
    /// - Returns: The line `render` prints: what it wrote, and where.
    /// - Throws: What stops a directory or a file from being written.
    public func write(_ page: String, to directory: URL) throws -> String {
        let assets = directory.appendingPathComponent("assets")
        try FileManager.default.createDirectory(at: assets, withIntermediateDirectories: true)
        let index = directory.appendingPathComponent("index.html")
        try Data(page.utf8).write(to: index)
        let files = assetFiles
        for (name, bytes) in files { try bytes.write(to: assets.appendingPathComponent(name)) }
        return "wrote \(index.path) and \(files.count) files in \(assets.path)"
    }
}
