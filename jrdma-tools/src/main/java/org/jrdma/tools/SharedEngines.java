package org.jrdma.tools;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.jrdma.mad.MadEngine;
import picocli.CommandLine;

/**
 * The MAD engines an {@code ibtool shell} or {@code ibtool --batch} keeps open from one command to
 * the next: a command that names the same port the same way (the same simulated node, or the same
 * kernel device, port and response timeout, and the same bound on MADs in flight) sends its MADs
 * through the engine an earlier command opened, so a run of many commands opens its port (umad
 * device or ibsim attachment, agent registrations) once. A command run with {@code --trace} gets an
 * engine of its own, its tracer being that command's. The engines are closed with this object.
 */
public final class SharedEngines implements AutoCloseable {
    /** The session the commands running on this thread share their engines in, if any. */
    private static final ScopedValue<SharedEngines> CURRENT = ScopedValue.newInstance();

    private final Map<String, MadEngine> engines = new LinkedHashMap<>();

    /**
     * Runs one {@code ibtool} command line in this session, with {@code out} and {@code err} as its
     * standard output and error, and returns its exit status as {@code ibtool ARGS...} would exit.
     */
    public int execute(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cl = Ibtool.commandLine(args);
        cl.setOut(out);
        cl.setErr(err);
        try {
            return ScopedValue.where(CURRENT, this).call(() -> cl.execute(args));
        } finally {
            out.flush();
            err.flush();
        }
    }

    /** How many engines are open: one per distinct port the commands named. */
    public synchronized int openEngines() {
        return engines.size();
    }

    /**
     * The engine for a command's options: the session's one for {@code key} (opened by
     * {@code open} the first time), or, outside a session or for a {@code null} key, a new one
     * the command closes itself.
     */
    static MadEngine engine(String key, Supplier<MadEngine> open) {
        if (key == null || !CURRENT.isBound()) {
            return open.get();
        }
        SharedEngines session = CURRENT.get();
        synchronized (session) {
            MadEngine engine = session.engines.get(key);
            if (engine == null) {
                engine = open.get();
                session.engines.put(key, engine);
            }
            return engine;
        }
    }

    /** Whether {@code engine} belongs to the session of this thread (so the command must not close it). */
    static boolean shared(MadEngine engine) {
        if (!CURRENT.isBound()) {
            return false;
        }
        SharedEngines session = CURRENT.get();
        synchronized (session) {
            return session.engines.containsValue(engine);
        }
    }

    /** Closes every engine the session opened. */
    @Override
    public synchronized void close() {
        RuntimeException failure = null;
        for (MadEngine engine : engines.values()) {
            try {
                engine.close();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        engines.clear();
        if (failure != null) {
            throw failure;
        }
    }
}
