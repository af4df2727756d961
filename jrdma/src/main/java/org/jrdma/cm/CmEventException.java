package org.jrdma.cm;

import java.time.Duration;
import org.jrdma.RdmaException;

/** The connection manager reported another event than the one expected, or none in time. */
public final class CmEventException extends RdmaException {
    private static final long serialVersionUID = 1L;

    /** The event that came instead, or null when none came. */
    private final transient CmEvent event;

    CmEventException(CmEventType expected, CmEvent event, Duration timeout) {
        super(event == null ? "no " + expected.text() + " within " + timeout
                : "expected " + expected.text() + ", got " + event);
        this.event = event;
    }

    /** The event that came instead of the expected one, or null when none came in time. */
    public CmEvent event() {
        return event;
    }
}
