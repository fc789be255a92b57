package org.ompprof.unwinder.stack;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** What selfstack.c wrote: registers, stack, backtrace()'s pcs and the loaded modules. */
record SelfStackCapture(Registers registers, StackSnapshot snapshot, long[] backtrace, List<LoadedModule> modules) {

    /** A module as dl_iterate_phdr saw it; {@code image} is empty when the file at {@code name} is the image. */
    record LoadedModule(String name, long bias, byte[] image) {}

    static SelfStackCapture read(Path file) throws IOException {
        ByteBuffer in = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        byte[] magic = new byte[8];
        in.get(magic);
        if (!new String(magic, StandardCharsets.US_ASCII).equals("OMPSTK01"))
            throw new IOException("bad magic in " + file);
        Registers regs = new Registers(in.getLong(), in.getLong(), in.getLong());
        byte[] stack = bytes(in);
        long[] bt = new long[(int) in.getLong()];
        for (int i = 0; i < bt.length; i++) bt[i] = in.getLong();
        int count = (int) in.getLong();
        List<LoadedModule> modules = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            long bias = in.getLong();
            String name = new String(bytes(in), StandardCharsets.UTF_8);
            modules.add(new LoadedModule(name, bias, bytes(in)));
        }
        return new SelfStackCapture(regs, new StackSnapshot(regs.rsp(), stack), bt, List.copyOf(modules));
    }

    private static byte[] bytes(ByteBuffer in) {
        byte[] b = new byte[(int) in.getLong()];
        in.get(b);
        return b;
    }
}
