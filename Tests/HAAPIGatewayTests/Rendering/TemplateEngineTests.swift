import Foundation
import Testing

@testable import HAAPIGateway

/// The gateway's Mustache engine against the rules of mustache(5) and the spec's standalone-line and partial-indentation
/// behaviour (the templates in `templates/` and operators' overrides rely on them).
@Suite("Template engine")
struct TemplateEngineTests {
    private func render(_ source: String, _ context: TemplateObject = [:], partials: [String: String] = [:]) throws -> String {
        var templates = try partials.mapValues { source throws(TemplateSyntaxError) in try TemplateParser.parse(source) }
        templates["main"] = try TemplateParser.parse(source)
        return String(decoding: TemplateSet(templates).render("main", context: .object(context)) ?? [], as: UTF8.self)
    }

    private func syntaxError(_ source: String) -> TemplateSyntaxError? {
        do {
            _ = try TemplateParser.parse(source)
            return nil
        } catch {
            return error
        }
    }

    @Test("variables: escaped, {{{ }}} and {{& }} as they are, missing ones empty, booleans and numbers as text")
    func variables() throws {
        let context: TemplateObject = ["html": "<b>&\"'</b>", "yes": true, "count": 3]
        #expect(
            try render("{{html}}|{{{html}}}|{{&html}}|{{ html }}", context)
                == "&lt;b&gt;&amp;&quot;&#39;&lt;/b&gt;|<b>&\"'</b>|<b>&\"'</b>|&lt;b&gt;&amp;&quot;&#39;&lt;/b&gt;"
        )
        #expect(try render("[{{missing}}][{{{missing}}}]", context) == "[][]")
        #expect(try render("{{yes}} {{count}}", context) == "true 3")
    }

    @Test("null shows as nothing, skips a section, shows an inverted one, and hides the same name in outer sections")
    func null() throws {
        let context: TemplateObject = ["none": .null, "name": "outer", "inner": ["name": .null]]
        #expect(try render("[{{none}}][{{{none}}}][{{#none}}x{{/none}}][{{^none}}y{{/none}}]", context) == "[][][][y]")
        #expect(try render("{{#inner}}[{{name}}]{{/inner}}", context) == "[]")
    }

    @Test("dotted names look up the first part outwards and the rest inside it; a broken chain is empty")
    func dottedNames() throws {
        let context: TemplateObject = ["t": ["hello": "Hej"], "a": ["b": ["c": "deep"]], "inner": ["x": 1]]
        #expect(try render("{{t.hello}} {{a.b.c}}", context) == "Hej deep")
        #expect(try render("{{#inner}}{{t.hello}}{{/inner}}", context) == "Hej")
        #expect(try render("[{{a.missing.c}}][{{t.hello.more}}]", context) == "[][]")
        // A name found in an inner section does not fall back outwards for its later parts.
        #expect(try render("{{#inner}}[{{a.b.x}}]{{/inner}}", ["a": ["b": ["c": "deep"]], "inner": ["a": ["b": [:]]]]) == "[]")
    }

    @Test("sections: lists repeat with each item, false and empty lists skip, true shows, objects and strings are pushed")
    func sections() throws {
        let context: TemplateObject = [
            "items": [["name": "a"], ["name": "b"]], "empty": [], "no": false, "yes": true, "person": ["name": "Ann"],
            "words": ["x", "y"], "name": "outer", "text": "",
        ]
        #expect(try render("{{#items}}<{{name}}>{{/items}}", context) == "<a><b>")
        #expect(try render("[{{#empty}}x{{/empty}}][{{#no}}x{{/no}}][{{#missing}}x{{/missing}}]", context) == "[][][]")
        #expect(try render("{{#yes}}{{name}}{{/yes}}", context) == "outer")
        #expect(try render("{{#person}}{{name}}{{/person}} {{name}}", context) == "Ann outer")
        #expect(try render("{{#words}}({{.}}){{/words}}", context) == "(x)(y)")
        #expect(try render("{{#text}}shown{{/text}}", context) == "shown", "a string, even an empty one, is a value")
        #expect(try render("{{#items}}{{#person}}{{name}}{{/person}}{{/items}}", context) == "AnnAnn", "outer names are visible inside")
    }

    @Test("inverted sections show for missing values, false and empty lists only")
    func invertedSections() throws {
        let context: TemplateObject = ["empty": [], "no": false, "yes": true, "items": ["a"], "text": ""]
        #expect(try render("{{^missing}}a{{/missing}}{{^no}}b{{/no}}{{^empty}}c{{/empty}}", context) == "abc")
        #expect(try render("[{{^yes}}x{{/yes}}{{^items}}x{{/items}}{{^text}}x{{/text}}]", context) == "[]")
    }

    @Test("a line holding only a section, comment, partial or delimiter tag leaves no trace; inline tags keep their line")
    func standaloneLines() throws {
        #expect(try render("Begin.\n{{#yes}}\nX\n{{/yes}}\nEnd.\n", ["yes": true]) == "Begin.\nX\nEnd.\n")
        #expect(try render("Begin.\n  {{#yes}}  \n  X\n\t{{/yes}}\nEnd.", ["yes": true]) == "Begin.\n  X\nEnd.")
        #expect(try render("a\r\n{{! note }}\r\nb", [:]) == "a\r\nb")
        #expect(try render("{{^no}}\nfirst line\n{{/no}}", ["no": false]) == "first line\n")
        #expect(try render("a {{#yes}}b{{/yes}} c\n", ["yes": true]) == "a b c\n")
        #expect(try render("x {{! note }}\ny", [:]) == "x \ny", "a comment after text is not standalone")
        #expect(try render("{{#yes}}\n{{name}}\n{{/yes}}", ["yes": true, "name": "n"]) == "n\n")
    }

    @Test("comments of one or more lines render as nothing")
    func comments() throws {
        #expect(try render("a{{! one }}b{{!\ntwo\nlines\n}}c", [:]) == "abc")
    }

    @Test("partials render in the current context; a standalone partial's indentation goes in front of each of its lines")
    func partials() throws {
        let partials = ["item": "<{{name}}>", "lines": "one\ntwo\n"]
        #expect(try render("{{#items}}{{> item}}{{/items}}", ["items": [["name": "a"], ["name": "b"]]], partials: partials) == "<a><b>")
        #expect(try render("start\n  {{> lines}}\nend", [:], partials: partials) == "start\n  one\n  two\nend")
        #expect(try render("[{{> missing}}]", [:], partials: partials) == "[]")
    }

    @Test("a standalone partial's indentation goes in front of the lines of its source, not of the values shown in them")
    func partialIndentationFollowsSourceLines() throws {
        let partials = ["shown": "<p>\n{{text}}\n</p>\n", "outer": "{{#yes}}\n{{text}}\n{{/yes}}\n  {{> shown}}\n", "first": "{{text}}|\n"]
        let context: TemplateObject = ["text": "a\nb", "yes": true]
        #expect(try render("  {{> shown}}\nend", context, partials: partials) == "  <p>\n  a\nb\n  </p>\nend")
        #expect(try render("  {{> first}}", context, partials: partials) == "  a\nb|\n", "a line beginning with a tag is indented")
        #expect(try render("- {{> first}}", context, partials: partials) == "- a\nb|\n", "an inline partial is not indented")
        #expect(
            try render("\t{{> outer}}", context, partials: partials) == "\ta\nb\n\t  <p>\n\t  a\nb\n\t  </p>\n",
            "standalone lines inside leave no indentation behind; nested partials add theirs"
        )
    }

    @Test("a partial that includes itself stops at the depth limit instead of recursing forever")
    func recursivePartialStops() throws {
        let output = try render("{{> loop}}", [:], partials: ["loop": "x{{> loop}}"])
        #expect(output == String(repeating: "x", count: TemplateRenderer.maximumPartialDepth))
    }

    @Test("set delimiters change the tags until they are set back")
    func setDelimiters() throws {
        #expect(try render("{{=<% %>=}}<% name %> {{name}} <%={{ }}=%>{{name}}", ["name": "n"]) == "n {{name}} n")
        #expect(try render("{{=| |=}}\n|#yes|\nshown\n|/yes|\n", ["yes": true]) == "shown\n")
    }

    @Test("broken templates name the line and what is wrong")
    func syntaxErrors() {
        #expect(syntaxError("a\n{{#open}}\nb") == TemplateSyntaxError(line: 2, reason: "{{#open}} is never closed"))
        #expect(syntaxError("{{#a}}\n{{/b}}") == TemplateSyntaxError(line: 2, reason: "{{/b}} closes {{#a}} of line 1"))
        #expect(syntaxError("x\n\n{{/a}}") == TemplateSyntaxError(line: 3, reason: "{{/a}} closes no section"))
        #expect(syntaxError("ok\n{{name") == TemplateSyntaxError(line: 2, reason: "unclosed tag (no }})"))
        #expect(syntaxError("{{{name}}") == TemplateSyntaxError(line: 1, reason: "unclosed tag (no }}})"))
        #expect(syntaxError("{{<parent}}{{/parent}}")?.reason.contains("inheritance") == true)
        #expect(
            syntaxError("a\n{{$block}}x{{/block}}")
                == TemplateSyntaxError(line: 2, reason: "template inheritance ({{<…}}, {{$…}}) is not supported; use partials")
        )
        #expect(
            syntaxError("a\nb\n{{> *dynamic}}") == TemplateSyntaxError(line: 3, reason: "dynamic names ({{>*…}}) are not supported; name the partial")
        )
        #expect(syntaxError("{{% PRAGMA }}")?.reason.contains("pragmas") == true)
        #expect(syntaxError("{{uppercased(name)}}")?.reason.contains("not a variable name") == true)
        #expect(syntaxError("{{a..b}}")?.reason.contains("not a variable name") == true)
        #expect(syntaxError("{{=<% =%>=}}")?.reason.contains("set delimiters") == true)
        #expect(syntaxError("{{#a}}{{/a}}{{.}}{{! }}") == nil)
    }

    @Test("any cut or corruption of the shipped templates parses or names its line; what parses renders")
    func damagedTemplatesNeverCrash() throws {
        let directory = GatewayHarness.templatesDirectory
        let sources = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".mustache") }.map {
            try String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8)
        }
        #expect(!sources.isEmpty)
        let pieces = [
            "{{", "}}", "{{{", "}}}", "{{#a}}", "{{^a}}", "{{/a}}", "{{/b}}", "{{>a}}", "{{=| |=}}", "{{!", "\n", "\r\n", "  ", "é", "\u{301}",
        ]
        var generator = SeededGenerator(seed: 9)
        var parsed = 0, refused = 0
        for source in sources {
            let bytes = Array(source.utf8)
            var variants = stride(from: 0, through: bytes.count, by: 7).map { String(decoding: bytes[..<$0], as: UTF8.self) }
            for _ in 0..<200 {
                var damaged = bytes
                let at = Int.random(in: 0...damaged.count, using: &generator)
                damaged.insert(contentsOf: Array(pieces.randomElement(using: &generator)!.utf8), at: at)
                if Bool.random(using: &generator), !damaged.isEmpty { damaged.remove(at: Int.random(in: 0..<damaged.count, using: &generator)) }
                variants.append(String(decoding: damaged, as: UTF8.self))
            }
            for variant in variants {
                do {
                    let nodes = try TemplateParser.parse(variant)
                    _ = TemplateSet(["a": nodes]).render("a", context: ["a": true, "t": ["x": "y"]])
                    parsed += 1
                } catch {
                    #expect(error.line >= 1 && !error.reason.isEmpty)
                    refused += 1
                }
            }
        }
        #expect(parsed > 0 && refused > 0)
        let deep =
            String(repeating: "{{#a}}", count: TemplateParser.maximumNesting + 1)
            + String(repeating: "{{/a}}", count: TemplateParser.maximumNesting + 1)
        #expect(syntaxError(deep)?.reason == "sections nest deeper than \(TemplateParser.maximumNesting)")
        let allowed =
            String(repeating: "{{#a}}", count: TemplateParser.maximumNesting) + "x"
            + String(repeating: "{{/a}}", count: TemplateParser.maximumNesting)
        #expect(try render(allowed, ["a": true]) == "x")
    }
}
