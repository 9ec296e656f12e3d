// shoebox-fuzz: reads the files named on stdin (one path a line) as a run reads them up to OCR (ReadCheck) and
// prints "N RESULT" for the N-th (from 0) as soon as it is done, so that fuzz/fuzz.py, which feeds it mutated
// fixtures, knows which file a crash or a hang happened on. Not a user's tool: `make fuzz` runs it.
import Foundation
import ShoeboxPipeline

var index = 0
while let line = readLine(strippingNewline: true) {
    // Written unbuffered, line by line: the driver must see every result before a crash on the next file.
    if !line.isEmpty { FileHandle.standardOutput.write(Data("\(index) \(ReadCheck.read(line))\n".utf8)) }
    index += 1
}
