import Foundation
import HAAPIGateway

/// The renderer with the repository's templates (`HAAPI_GATEWAY_TEMPLATES` or `templates/` two levels above this file).
enum ShippedTemplates {
    static let renderer: StepRenderer = {
        let directory =
            ProcessInfo.processInfo.environment["HAAPI_GATEWAY_TEMPLATES"].map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("templates")
        do {
            return try StepRenderer(templates: TemplateSettings(directory: directory))
        } catch {
            fatalError("templates not found at \(directory.path): \(error)")
        }
    }()
}
