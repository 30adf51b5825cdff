/// Minimal HTML for the demo pages; every interpolated value is escaped by the caller with `escape`.
enum HTMLPage {
    static func render(title: String, body: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escape(title))</title>
        <style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}form{margin:1rem 0}label{display:block;margin:.5rem 0}.error{color:#b00}</style>
        </head><body><h1>\(escape(title))</h1>
        <p><em>Demo HAAPI server: not an identity provider.</em></p>
        \(body)
        </body></html>
        """
    }

    /// `text` with `&`, `<`, `>`, `"` and `'` replaced by their entities, scalar by scalar: compared as whole
    /// characters, a quote joined by a combining mark (one character) would pass unescaped and end an attribute.
    static func escape(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result.append(contentsOf: "&amp;".unicodeScalars)
            case "<": result.append(contentsOf: "&lt;".unicodeScalars)
            case ">": result.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": result.append(contentsOf: "&quot;".unicodeScalars)
            case "'": result.append(contentsOf: "&#39;".unicodeScalars)
            default: result.append(scalar)
            }
        }
        return String(result)
    }
}
