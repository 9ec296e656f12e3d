import Foundation
import Testing

@testable import ShoeboxPipeline

/// The order work is handed out in, and the window that keeps finished-but-undelivered results few.
struct WorkListTests {
    @Test func bigFilesFirstWithinEachChunk() {
        let sizes = [1, 5, 3, 9, 2, 8, 7]
        let list = WorkList(sizes, size: { $0 }, chunk: 3, window: 100)
        var handed: [Int] = []
        while let (position, _) = list.take() { handed.append(position) }
        #expect(handed == [1, 2, 0, 3, 5, 4, 6], "chunks [0,1,2] [3,4,5] [6], each by size descending")
    }

    @Test func noWorkerRunsMoreThanTheWindowAheadOfDelivery() throws {
        let list = WorkList(Array(0..<10), chunk: 2, window: 4)
        for expected in 0..<4 { #expect(list.take()?.position == expected) }
        // Position 4 is 4 past delivery (0): the fifth take waits until position 0 is delivered.
        let got = Mutex(-1)
        let thread = Thread { got.set(list.take()?.position ?? -2) }
        thread.start()
        Thread.sleep(forTimeInterval: 0.2)
        #expect(got.value == -1, "still waiting")
        list.delivered(upTo: 1)
        for _ in 0..<100 where got.value == -1 { Thread.sleep(forTimeInterval: 0.02) }
        #expect(got.value == 4)
        list.cancel()
        #expect(list.take() == nil)
    }
}

/// A tiny lock-protected box for the test's thread.
final class Mutex<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T
    init(_ value: T) { stored = value }
    var value: T {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
    func set(_ v: T) {
        lock.lock()
        stored = v
        lock.unlock()
    }
}

/// The worker pool keeps nothing it has handed on.
struct WorkerPoolMemoryTests {
    final class Box: Sendable {}

    @Test func theChannelKeepsNothingItDelivered() {
        let channel = Channel<Box>()
        weak var sent: Box?
        do {
            let box = Box()
            sent = box
            channel.send(box)
        }
        #expect(sent != nil && channel.count == 1)
        _ = channel.receive()
        #expect(sent == nil, "the channel still holds the item it delivered")
        #expect(channel.count == 0)
    }

    @Test func theWorkListKeepsNoItemItHandedOut() {
        weak var first: Box?
        let list: WorkList<Box>
        do {
            let box = Box()
            first = box
            list = WorkList([box, Box()])
        }
        do { _ = list.take() }
        #expect(first == nil, "the work list still holds the item it handed out")
        #expect(list.take() != nil)
        #expect(list.take() == nil)
    }
}
