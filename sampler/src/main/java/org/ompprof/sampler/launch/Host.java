package org.ompprof.sampler.launch;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;

/** This machine's name, without a DNS lookup if the kernel can tell. */
final class Host {
    private Host() {}

    static String name() {
        try {
            String n = Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
            if (!n.isEmpty()) return n;
        } catch (IOException | RuntimeException ignored) {
            // fall back below
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "unknown";
        }
    }
}
