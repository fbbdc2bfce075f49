// The writer's value slots: params, then array elements breadth first.
import LiveryModel

extension EncoderState {
    /// `PARM`: every param first (operations' ranges tile them in order), then
    /// array elements breadth first (arrays' ranges tile the rest in slot order), which is what
    /// the verifier checks to rule out cycles, sharing and unbounded nesting.
    mutating func valueSection() throws(BinaryFormatError) -> [UInt8] {
        var queue = values
        var buffer = ByteBuffer()
        var cursor = 0
        var nextElement = queue.count
        while cursor < queue.count {
            let pending = queue[cursor]
            if case .array(let items) = pending.value {
                for item in items { queue.append(PendingValue(name: Format.none, value: item)) }
            }
            try slot(pending, index: cursor, nextElement: &nextElement, into: &buffer)
            cursor += 1
        }
        guard queue.count < Int(Format.none) else { throw .unencodable("more than 2^32 values") }
        return Self.counted(queue.count) { $0.bytes += buffer.bytes }
    }

    mutating func slot(
        _ pending: PendingValue, index: Int, nextElement: inout Int,
        into buffer: inout ByteBuffer
    ) throws(BinaryFormatError) {
        func finite(_ numbers: Double...) throws(BinaryFormatError) {
            for number in numbers where !number.isFinite {
                throw .unencodable("a value holds the non-finite number \(number)")
            }
        }
        let start = buffer.bytes.count
        buffer.u32(pending.name)
        var small: UInt8 = 0
        let tagOffset = buffer.bytes.count
        buffer.u8(0)
        buffer.u8(0)
        buffer.u16(0)
        let tag = pending.value.type.tag
        switch pending.value {
        case .float(let number):
            try finite(number)
            buffer.f64(number)
        case .integer(let number):
            buffer.i64(number)
        case .bool(let flag):
            small = flag ? 1 : 0
        case .string(let text):
            buffer.u32(string(text))
        case .enumeration(let text):
            buffer.u32(string(text))
        case .color(let color):
            try finite(color.red, color.green, color.blue, color.alpha)
            for component in [color.red, color.green, color.blue, color.alpha] { buffer.f64(component) }
        case .point(let point):
            try finite(point.x, point.y)
            buffer.f64(point.x)
            buffer.f64(point.y)
        case .size(let size):
            try finite(size.width, size.height)
            buffer.f64(size.width)
            buffer.f64(size.height)
        case .rect(let rect):
            try finite(rect.x, rect.y, rect.width, rect.height)
            for number in [rect.x, rect.y, rect.width, rect.height] { buffer.f64(number) }
        case .insets(let insets):
            try finite(insets.top, insets.left, insets.bottom, insets.right)
            for number in [insets.top, insets.left, insets.bottom, insets.right] { buffer.f64(number) }
        case .font(let font):
            buffer.u32(string(font.family))
            buffer.u8(font.weight.diskCode)
            // Format 1.1: scaling code (0 = not given) and a has-max-size flag; zero in 1.0 fonts.
            buffer.u8(font.scaling?.diskCode ?? 0)
            buffer.u8(font.maxSize == nil ? 0 : 1)
            // Format 1.2: which typography numbers are given (bit 0 letter spacing, bit 1 line
            // height); a number not given is stored as 0.
            buffer.u8((font.letterSpacing == nil ? 0 : 1) | (font.lineHeight == nil ? 0 : 2))
            if let size = font.size {
                try finite(size)
                small = 1
            }
            try finite(font.maxSize ?? 0, font.letterSpacing ?? 0, font.lineHeight ?? 0)
            if let lineHeight = font.lineHeight, lineHeight < 0 {
                throw .unencodable("a font's line height is \(ValueText.number(lineHeight)); it cannot be negative")
            }
            buffer.f64(font.size ?? 0)
            buffer.f64(font.maxSize ?? 0)
            buffer.f64(font.letterSpacing ?? 0)
            buffer.f64(font.lineHeight ?? 0)
        case .image(let image):
            buffer.u32(string(image.name))
            small = image.cache ? 1 : 0
            if image.cache { cachedImages.insert(ExactString(image.name)) }
        case .array(let items):
            buffer.u32(nextElement)
            buffer.u32(items.count)
            let depth = Self.depth(pending.value)
            // Readers refuse deeper arrays (VerificationLimits.maxArrayDepth): never write one
            // (found by the FuzzRoundTrip fuzzer).
            guard depth <= VerificationLimits().maxArrayDepth else {
                throw .unencodable(
                    "arrays nest \(depth) deep; at most \(VerificationLimits().maxArrayDepth) can be stored")
            }
            buffer.u32(depth)
            nextElement += items.count
        }
        buffer.bytes[tagOffset] = tag.rawValue
        buffer.bytes[tagOffset + 1] = small
        buffer.zeros(start + Format.valueSlotSize - buffer.bytes.count)
    }

    /// 1 for an array of scalars, 1 + the deepest element array otherwise.
    static func depth(_ value: Value) -> Int {
        guard case .array(let items) = value else { return 0 }
        return 1 + (items.map(depth).max() ?? 0)
    }
}
