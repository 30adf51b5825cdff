/// The result of running a program: its exit status and what it wrote.
struct ProcessResult {
    let status: Int32
    let standardOutput: String
    let standardError: String
}
