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

    @Test(arguments: [
        ("a/b/c", "c"), ("a/b/c/", "c"), ("o", "o"), ("/", "/"), ("", ""), ("//x//", "x"), ("new\nline.jpg", "new\nline.jpg")
    ])
    func theLastComponent(path: String, last: String) {
        #expect(PathText.lastComponent(of: path) == last)
    }

    @Test(arguments: [
        ("a/b.tar.gz", "gz", "a/b.tar"), ("README", "", "README"), (".bashrc", "", ".bashrc"), ("a.", "", "a."),
        ("d.x/f", "", "d.x/f"), ("IMG_1.JPG", "JPG", "IMG_1"), ("s/r.pdf/", "pdf", "s/r")
    ])
    func theExtension(path: String, ext: String, without: String) {
        #expect(PathText.pathExtension(of: path) == ext)
        #expect(PathText.removingExtension(path) == without)
    }

    @Test(arguments: [
        ("scans/", "/work", "/work/scans"), ("/work/x/../scans/.", "/", "/work/scans"), (".", "/work", "/work"),
        ("..", "/work", "/"), ("../../..", "/work", "/"), ("o", "/", "/o"), ("a//b/", "/w", "/w/a/b"), ("/", "/w", "/")
    ])
    func anAbsolutePathIsTidiedAsText(path: String, cwd: String, absolute: String) {
        #expect(PathText.absolute(path, in: cwd) == absolute)
    }
}
