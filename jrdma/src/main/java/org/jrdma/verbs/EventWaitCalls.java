package org.jrdma.verbs;

import org.jrdma.ffi.Invokers;
import org.jrdma.ffi.Libc;
import org.jrdma.verbs.ffi.IbvCompChannel;

/**
 * The calls a thread makes each time it goes to sleep on a completion channel and wakes
 * ({@code ibv_req_notify_cq}, {@code poll(2)}, {@code ibv_get_cq_event}, {@code ibv_ack_cq_events},
 * an eventfd's {@code read} and {@code write}), settled before such a loop runs: a loop that
 * sleeps rarely makes them interpreted or C1-compiled for a long time, and the JDK customizes a
 * call's invoker at its 128th call, allocating 16 to 64 KB at once in the loop's thread
 * ({@link Invokers}). An endpoint group does this when its first endpoint joins.
 */
public final class EventWaitCalls {
    /** Whether {@link #customize} has run in this process. */
    private static boolean customized;

    private EventWaitCalls() {
    }

    /**
     * Has the JDK customize those calls' invokers now, once a process: arms a queue made for it
     * in {@code ctx} {@link Invokers#CUSTOMIZE_CALLS} times, takes events from a channel that
     * cannot have any, acknowledges none, and has {@link Libc#customizeInvokers()} do the rest.
     * Later calls return at once.
     */
    public static synchronized void customize(Context ctx) {
        if (customized) {
            return;
        }
        try (Cq cq = ctx.cq(1, null)) {
            Invokers.customize(() -> cq.reqNotify(false));
            IbvCompChannel.customizeInvokers(cq.handle().address());
        }
        Libc.customizeInvokers();
        customized = true;
    }
}
