package org.ompprof.sampler.ring;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.ompprof.sampler.UserError;
import org.ompprof.sampler.wire.Wire;
import org.ompprof.sampler.wire.Wire.RegionHeader;

/**
 * The shared-memory region the agent writes into: a file in /dev/shm created 0600, its headers
 * reserved with posix_fallocate and its rings by the agent as it first fills them (so the program
 * can never SIGBUS on a full tmpfs), and mapped.
 * The file is unlinked as soon as the agent has mapped it; the mappings stay.
 */
public final class Region implements AutoCloseable {
    public static final Path DEFAULT_DIR = Path.of("/dev/shm");

    private final Arena arena;
    private final MemorySegment segment;
    private final RegionLayout layout;
    private final Path path;
    private final List<Slot> slots;
    private final AtomicBoolean unlinked = new AtomicBoolean();

    private Region(Arena arena, MemorySegment segment, RegionLayout layout, Path path) {
        this.arena = arena;
        this.segment = segment;
        this.layout = layout;
        this.path = path;
        List<Slot> s = new ArrayList<>(layout.slots());
        for (int i = 0; i < layout.slots(); i++) s.add(new Slot(segment, layout, i));
        this.slots = List.copyOf(s);
        writeHeader();
    }

    /** Creates, reserves and maps {@code dir/ompprof-<jvmpid>-<random>} and fills its header. */
    public static Region create(Path dir, RegionLayout layout) throws IOException {
        Path path = dir.resolve("ompprof-" + ProcessHandle.current().pid() + "-"
                + HexFormat.of().formatHex(random()));
        try {
            // mode 0600 from the start: never readable by others, not even briefly
            Files.createFile(path, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (IOException e) {
            throw new UserError("cannot create the shared-memory file in " + dir + ": " + e.getMessage(), e);
        }
        Arena arena = Arena.ofShared();
        try {
            MemorySegment segment;
            try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                reserve(ch, dir, layout);
                segment = ch.map(FileChannel.MapMode.READ_WRITE, 0, layout.totalSize(), arena);
            }
            return new Region(arena, segment, layout, path);
        } catch (IOException | RuntimeException | Error e) {
            arena.close();
            Files.deleteIfExists(path);
            throw e;
        }
    }

    /** A region in ordinary memory, for producers and consumers in one process (tests). */
    public static Region inMemory(RegionLayout layout) {
        Arena arena = Arena.ofShared();
        return new Region(arena, arena.allocate(layout.totalSize(), 4096), layout, null);
    }

    /**
     * Reserves the region's headers, which both sides read from the start; the agent reserves each
     * ring's pages as it first reaches them, so a run commits the memory its threads write, not
     * all its slots' rings. The free space must still hold them all: a full tmpfs costs records,
     * and it is better said now. The headers are reserved by writing them (zeros, as a new file
     * reads): on tmpfs that commits their pages as fallocate would, without a call outside Java.
     */
    private static void reserve(FileChannel ch, Path dir, RegionLayout layout) throws IOException {
        long free = Files.getFileStore(dir).getUsableSpace();
        if (free < layout.totalSize()) throw noRoom(dir, layout, free);
        try {
            zero(ch, 0, Wire.REGION_HEADER_SIZE);
            for (int i = 0; i < layout.slots(); i++) zero(ch, layout.slotOffset(i), Wire.SLOT_HEADER_SIZE);
        } catch (IOException e) {
            free = Files.getFileStore(dir).getUsableSpace();
            if (free < layout.totalSize()) throw noRoom(dir, layout, free); // filled meanwhile
            throw e;
        }
    }

    private static void zero(FileChannel ch, long offset, int length) throws IOException {
        ByteBuffer zeros = ByteBuffer.allocate(length);
        while (zeros.hasRemaining()) ch.write(zeros, offset + zeros.position());
    }

    /** The name's random part: others cannot guess it to take the name first. */
    private static byte[] random() throws IOException {
        try (InputStream in = Files.newInputStream(Path.of("/dev/urandom"))) {
            return in.readNBytes(8);
        }
    }

    private static UserError noRoom(Path dir, RegionLayout layout, long free) {
        return new UserError(String.format(
                "no room in shared memory (%s): need %d MiB, %d MiB free; "
                        + "free space or use --slots/--ring-kib to shrink",
                dir, mib(layout.totalSize()), free >> 20));
    }

    private static long mib(long bytes) {
        return (bytes + (1 << 20) - 1) >> 20;
    }

    /** The signal the agent samples with (0: SIGPROF); set before the program starts. */
    public void setSignal(int signal) {
        int flags =
                segment.get(ValueLayout.JAVA_INT, RegionHeader.FLAGS); // keep the Wire.REGION_* bits above the signal
        segment.set(ValueLayout.JAVA_INT, RegionHeader.FLAGS, flags & ~0xFF | signal & 0xFF);
    }

    /** {@code Wire.SIGNAL_*} bits the agent found. */
    public int signalProblems() {
        return Atomics.getOpaqueInt(segment, RegionHeader.SIGNAL_PROBLEMS);
    }

    /** Sampling signals that reached the agent's handler from elsewhere than its timers. */
    public long foreignSignals() {
        return Integer.toUnsignedLong(Atomics.getOpaqueInt(segment, RegionHeader.FOREIGN_SIGNALS));
    }

    /** Wall mode: samples of blocked threads the agent took from outside, without a signal. */
    public long wallOutside() {
        return Atomics.getOpaqueLong(segment, RegionHeader.WALL_OUTSIDE);
    }

    /** Wall mode: signals the agent's sampler sent to running threads. */
    public long wallSignalled() {
        return Atomics.getOpaqueLong(segment, RegionHeader.WALL_SIGNALLED);
    }

    /** Wall mode: of those, signals that found the thread just blocked in a call, which then returned EINTR. */
    public long wallInterrupted() {
        return Atomics.getOpaqueLong(segment, RegionHeader.WALL_INTERRUPTED);
    }

    /** Wall mode: signals that found the thread just blocked in a call, which the agent's handler restarted. */
    public long wallRestarted() {
        return Atomics.getOpaqueLong(segment, RegionHeader.WALL_RESTARTED);
    }

    /** Wall mode: ticks (or the rest of one) the agent's sampler left because it came late to them. */
    public long wallLateTicks() {
        return Integer.toUnsignedLong(Atomics.getOpaqueInt(segment, RegionHeader.WALL_LATE_TICKS));
    }

    /** Wall mode: views of a switched-to task the agent made by asking the runtime (the rest it made itself). */
    public long taskViewsAsked() {
        return Atomics.getOpaqueLong(segment, RegionHeader.TASK_VIEWS_ASKED);
    }

    /** Wall mode: how the agent found the frames of the tasks it switched to ({@code Wire.TASK_FRAME_*}). */
    public int taskFrameLayout() {
        return Atomics.getOpaqueInt(segment, RegionHeader.TASK_FRAME_LAYOUT);
    }

    /** cpu mode: threads the agent moved from their perf event to a CPU-clock timer (they switched too often). */
    public long cpuMovedThreads() {
        return Integer.toUnsignedLong(Atomics.getOpaqueInt(segment, RegionHeader.CPU_MOVED_THREADS));
    }

    /** cpu mode: the context switches per CPU-second above which the agent moves a thread (0: never). */
    public long cpuSwitchLimit() {
        return Integer.toUnsignedLong(Atomics.getOpaqueInt(segment, RegionHeader.CPU_SWITCH_LIMIT));
    }

    private void writeHeader() {
        MemorySegment h = segment;
        h.set(ValueLayout.JAVA_INT, RegionHeader.VERSION, Wire.WIRE_VERSION);
        h.set(ValueLayout.JAVA_INT, RegionHeader.HEADER_SIZE, Wire.REGION_HEADER_SIZE);
        h.set(ValueLayout.JAVA_LONG, RegionHeader.TOTAL_SIZE, layout.totalSize());
        h.set(ValueLayout.JAVA_INT, RegionHeader.SLOT_COUNT, layout.slots());
        h.set(ValueLayout.JAVA_INT, RegionHeader.SLOT_HEADER_SIZE, Wire.SLOT_HEADER_SIZE);
        h.set(ValueLayout.JAVA_LONG, RegionHeader.SAMPLE_RING_SIZE, layout.sampleRingSize());
        h.set(ValueLayout.JAVA_LONG, RegionHeader.EVENT_RING_SIZE, layout.eventRingSize());
        h.set(ValueLayout.JAVA_INT, RegionHeader.MODE, layout.mode());
        h.set(ValueLayout.JAVA_INT, RegionHeader.RATE_HZ, layout.rateHz());
        h.set(ValueLayout.JAVA_INT, RegionHeader.STACK_BYTES, layout.stackBytes());
        h.set(ValueLayout.JAVA_INT, RegionHeader.FLAGS, layout.flags());
        // the magic last, released: whoever sees it sees a complete header
        Atomics.setReleaseLong(h, RegionHeader.MAGIC, Wire.WIRE_MAGIC);
    }

    public MemorySegment segment() {
        return segment;
    }

    public RegionLayout layout() {
        return layout;
    }

    /** The shared-memory file (gone once unlinked), or null for an in-memory region. */
    public Path path() {
        return path;
    }

    public List<Slot> slots() {
        return slots;
    }

    /** {@code Wire.AGENT_*}, acquire. */
    public int agentState() {
        return Atomics.getAcquireInt(segment, RegionHeader.AGENT_STATE);
    }

    public int agentPid() {
        return Atomics.getAcquireInt(segment, RegionHeader.AGENT_PID);
    }

    public long agentStartNs() {
        return Atomics.getOpaqueLong(segment, RegionHeader.AGENT_START_NS);
    }

    public long noSlotDrops() {
        return Atomics.getOpaqueLong(segment, RegionHeader.NO_SLOT_DROPS);
    }

    public long disabledSignals() {
        return Atomics.getOpaqueLong(segment, RegionHeader.DISABLED_SIGNALS);
    }

    public long modulesAnnounced() {
        return Atomics.getAcquireLong(segment, RegionHeader.MODULES_ANNOUNCED);
    }

    /** Tells the agent that the images of the first {@code n} held-fd modules are safe. */
    public void setModulesCaptured(long n) {
        Atomics.setReleaseLong(segment, RegionHeader.MODULES_CAPTURED, n);
    }

    public long modulesCaptured() {
        return Atomics.getAcquireLong(segment, RegionHeader.MODULES_CAPTURED);
    }

    /** {@link Wire#JVM_DRAINING} while the JVM drains, {@link Wire#JVM_STOPPED} once it stopped. */
    public void setJvmState(int state) {
        Atomics.setReleaseInt(segment, RegionHeader.JVM_STATE, state);
    }

    /** The runtime version string the agent copied from ompt_start_tool, or "" before. */
    public String runtimeVersion() {
        if (agentState() < Wire.AGENT_MAPPED) return "";
        MemorySegment s = segment.asSlice(RegionHeader.RUNTIME_VERSION, RegionHeader.SIZEOF_RUNTIME_VERSION);
        int n = 0;
        while (n < s.byteSize() && s.get(ValueLayout.JAVA_BYTE, n) != 0) n++;
        return new String(s.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
    }

    /** Unlinks the file once the agent has mapped it; true if the file is gone. */
    public boolean unlinkIfMapped() {
        if (unlinked.get()) return true;
        if (agentState() < Wire.AGENT_MAPPED) return false;
        unlink();
        return true;
    }

    /** Removes the file (idempotent); the mapping stays valid. */
    public void unlink() {
        if (path == null || !unlinked.compareAndSet(false, true)) return;
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            unlinked.set(false); // let a later attempt (the shutdown hook) retry
        }
    }

    /** Unlinks the file and unmaps the region; nothing may read it afterwards. */
    @Override
    public void close() {
        unlink();
        arena.close();
    }
}
