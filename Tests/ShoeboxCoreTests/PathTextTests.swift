import Testing

@testable import ShoeboxCore

/// Paths split and joined as text (issue 53): one character, trailing slashes, the root, repeated slashes, dots.
struct PathTextTests {
    @Test(arguments: [
        ("o", ""), ("o/", ""), ("a/b", "a"), ("a/b/", "a"), ("y/", ""), ("/", "/"), ("/o", "/"), ("//o", "/"),
        ("a//b", "a"), ("./o", "."), ("../o", ".."), ("..", ""), ("", ""), ("a b/ü\nx", "a b"), ("-o/p", "-o")
    ])
    func theParentOfAPath(path: String, parent: String) {
        #expect(PathText.parent(of: path) == parent)
    }

    @Test func aNameJoinsItsFolder() {
        #expect(PathText.joined("o", "run.lock") == "o/run.lock")
        #expect(PathText.joined("y/", "run.lock") == "y/run.lock")
        #expect(PathText.joined("/", "run.lock") == "/run.lock")
        #expect(PathText.joined("", "run.lock") == "run.lock")
    }
}
