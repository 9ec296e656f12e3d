internal import Foundation
internal import PPOCR
public import ShoeboxCore

/// Finds the text lines of a page: the boxes, in page pixels, top to bottom then left to right. The second reader's
/// `SecondReadingStage` asks it for the head of a first page and for pages tesseract could not read; `PPOCRTextDetector`
/// is PP-OCRv4's, tests give their own. One detector may be used by several threads at once.
public protocol TextLineDetector: AnyObject, Sendable {
    /// The lines of `image`; none when it has no text or could not be read. `maxSide`: the longest side the page is
    /// scaled to before it is looked at.
    func detect(_ image: PageImage, maxSide: Int) -> [BoundingBox]
}

extension TextLineDetector {
    public func detect(_ image: PageImage) -> [BoundingBox] { detect(image, maxSide: 960) }
}

/// PaddleOCR's PP-OCRv4 text-line detection model run in process by ONNX Runtime's C API (the PPOCR C target):
/// a page in, the boxes of its text lines out. Its parts are installed with the line reader's (`make setup`, into
/// `PPOCRLineReader.directory`). Several threads may detect with one detector at once.
public final class PPOCRTextDetector: TextLineDetector, @unchecked Sendable {
    private let handle: OpaquePointer

    /// The wheel's detection model with its constant arithmetic folded into its convolutions (readers/fold_model.py).
    public static let modelFile = "ch_PP-OCRv4_det_folded.onnx"
    /// The model as the wheel has it, installed beside the folded one for the tests that compare the two.
    public static let wheelModelFile = "ch_PP-OCRv4_det_infer.onnx"

    /// The process's detector, opened once from `PPOCRLineReader.directory`; its failure says why.
    public static let shared: Result<PPOCRTextDetector, OCREngineError> = open(directory: PPOCRLineReader.directory)

    public static func open(directory: String, model: String = modelFile) -> Result<PPOCRTextDetector, OCREngineError> {
        PPOCRLineReader.openPart(directory: directory, model: model, with: ppocr_open_detector).map(PPOCRTextDetector.init(handle:))
    }

    private init(handle: OpaquePointer) { self.handle = handle }

    deinit { ppocr_close_detector(handle) }

    /// The boxes of the text lines of `image` in page pixels, top to bottom then left to right; none when the
    /// page has no text or could not be read. `maxSide`: the model's input is the page scaled so its long side is
    /// at most this (one run at 960 adds about 150 MB to the peak; ppocr.h caps it at `PPOCR_DET_MAX_SIDE`).
    public func detect(_ image: PageImage, maxSide: Int) -> [BoundingBox] {
        guard image.width > 0, image.height > 0, image.gray.count == image.width * image.height else { return [] }
        var boxes = [ppocr_box](repeating: ppocr_box(), count: Int(PPOCR_MAX_BOXES))
        var error = [CChar](repeating: 0, count: 256)
        let count = image.gray.withUnsafeBufferPointer { pixels in
            ppocr_detect(
                handle, pixels.baseAddress!, Int32(clamping: image.width), Int32(clamping: image.height), Int32(clamping: image.width),
                Int32(clamping: maxSide), &boxes, Int32(boxes.count), &error, error.count)
        }
        guard count > 0 else { return [] }
        return boxes.prefix(Int(min(count, Int32(boxes.count)))).map {
            BoundingBox(left: Int($0.left), top: Int($0.top), right: Int($0.right), bottom: Int($0.bottom))
        }
    }
}
