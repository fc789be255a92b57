package org.ompprof.sampler.launch;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Whether a file is a 64-bit little-endian ELF executable with a program interpreter. Only such a
 * program may be started with LD_TRACE_LOADED_OBJECTS: the dynamic loader then lists libraries
 * and exits, whereas a static program would simply run.
 */
final class DynamicElf {
    private static final int PT_INTERP = 3;
    private static final int MAX_HEADERS = 256;

    private DynamicElf() {}

    static boolean hasInterpreter(Path file) {
        try (FileChannel ch = FileChannel.open(file)) {
            ByteBuffer eh = read(ch, 0, 64);
            if (eh == null || eh.getInt(0) != 0x464c457f || eh.get(4) != 2 || eh.get(5) != 1) return false;
            long phoff = eh.getLong(0x20);
            int phentsize = Short.toUnsignedInt(eh.getShort(0x36));
            int phnum = Short.toUnsignedInt(eh.getShort(0x38));
            if (phentsize < 4 || phnum > MAX_HEADERS || phoff <= 0) return false;
            for (int i = 0; i < phnum; i++) {
                ByteBuffer ph = read(ch, phoff + (long) i * phentsize, 4);
                if (ph == null) return false;
                if (ph.getInt(0) == PT_INTERP) return true;
            }
            return false;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private static ByteBuffer read(FileChannel ch, long at, int n) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
        while (b.hasRemaining()) {
            if (ch.read(b, at + b.position()) < 0) return null;
        }
        return b.flip();
    }
}
