package org.ompprof.unwinder.symbols;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * llvm-symbolizer's answer for one address: its frames, innermost inlined function first, or
 * the error it reported for the object (missing file, not an object file, ...).
 *
 * @param error empty unless the symbolizer could not read the object
 */
public record LlvmAnswer(String module, long address, List<LlvmFrame> frames, String error) {
    public LlvmAnswer {
        frames = List.copyOf(frames);
    }

    public boolean failed() {
        return !error.isEmpty();
    }

    /** Decodes one line of {@code --output-style=JSON}. */
    static LlvmAnswer decode(String line) {
        if (!(Json.parse(line) instanceof Map<?, ?> top))
            throw new IllegalArgumentException("answer is not a JSON object: " + line);
        String module = text(top.get("ModuleName"));
        long address = address(top.get("Address"), line);
        if (top.get("Error") instanceof Map<?, ?> err)
            return new LlvmAnswer(module, address, List.of(), text(err.get("Message")));
        List<LlvmFrame> frames = new ArrayList<>();
        if (top.get("Symbol") instanceof List<?> symbols) {
            for (Object o : symbols) {
                if (o instanceof Map<?, ?> s) frames.add(frame(s));
            }
        }
        return new LlvmAnswer(module, address, frames, "");
    }

    private static LlvmFrame frame(Map<?, ?> s) {
        return new LlvmFrame(
                text(s.get("FunctionName")), text(s.get("FileName")), number(s.get("Line")), number(s.get("Column")));
    }

    private static long address(Object o, String line) {
        // An input line it could not parse comes back without an address: report it as -1.
        if (!(o instanceof String s)) return -1;
        try {
            return s.startsWith("0x") ? Long.parseUnsignedLong(s.substring(2), 16) : Long.parseUnsignedLong(s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad address in answer: " + line);
        }
    }

    private static String text(Object o) {
        return o instanceof String s ? s : "";
    }

    private static int number(Object o) {
        return o instanceof Long l && l >= 0 && l <= Integer.MAX_VALUE ? l.intValue() : 0;
    }
}
