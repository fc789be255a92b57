package org.ompprof.ui.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.ompprof.calltree.profile.DeviceTable;
import org.ompprof.sampler.recording.ImageSource;
import org.ompprof.sampler.recording.Metadata;
import org.ompprof.sampler.recording.ModuleInfo;

class OffloadNoteTest {
    private static final List<ModuleInfo> OFFLOADING =
            List.of(module("/usr/bin/app"), module("/usr/lib/llvm-19/lib/libomptarget.so.19.1"));
    private static final Metadata NO_LINK = new Metadata(Map.of());
    private static final Metadata LINKED =
            new Metadata(Map.of(Metadata.OFFLOAD_LIBOMP, "/usr/lib/llvm-19/lib/libomp.so.5"));

    @Test
    void silentWhenTheProgramDoesNotOffloadOrADeviceConnected() {
        assertEquals(
                Optional.empty(),
                OffloadNote.of(
                        NO_LINK, List.of(module("/usr/bin/app"), module("/usr/lib/libomp.so.5")), DeviceTable.empty()));
        DeviceTable oneDevice = new DeviceTable(List.of(new DeviceTable.Device(0, "generic-64bit")), List.of());
        assertEquals(Optional.empty(), OffloadNote.of(NO_LINK, OFFLOADING, oneDevice));
    }

    @Test
    void withoutTheLinkItSaysHowToGiveLibompSo() {
        String note = OffloadNote.of(NO_LINK, OFFLOADING, DeviceTable.empty()).orElseThrow();
        assertTrue(
                note.contains("no device connected")
                        && note.contains("LD_LIBRARY_PATH")
                        && note.contains("not a script"),
                note);
    }

    @Test
    void withTheLinkItSaysNoDeviceOrHostFallback() {
        String note = OffloadNote.of(LINKED, OFFLOADING, DeviceTable.empty()).orElseThrow();
        assertTrue(
                note.contains("/usr/lib/llvm-19/lib/libomp.so.5")
                        && note.contains("OMP_TARGET_OFFLOAD")
                        && note.contains("LIBOMPTARGET_INFO"),
                note);
    }

    private static ModuleInfo module(String path) {
        return new ModuleInfo(1, path, 0, 0, 0, 0, 0, 0, 0, "", List.of(), 0, 0, ImageSource.REFERENCE, "", 0, "");
    }
}
