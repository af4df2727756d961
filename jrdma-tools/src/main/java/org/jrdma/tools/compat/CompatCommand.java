package org.jrdma.tools.compat;

import org.jrdma.tools.scripts.ScriptCommand;

/**
 * One of infiniband-diags' deprecated {@code ibcheck*} shell scripts as an {@code ibtool} command,
 * a {@link ScriptCommand}: the script reads its own command line as the shell's {@code $1} loop
 * does, and where it runs a diags tool ({@code ibaddr}, {@code smpquery}, {@code perfquery},
 * {@code ibnetdiscover}) or another of these scripts, the command runs that ibtool command in this
 * process, the run's tools sharing one MAD engine per port, so the fabric-wide scripts can run the
 * checks of many nodes at once. What the script prints and the checks it makes go through a
 * {@link Script}; with {@code --json} the command's document is made of those checks.
 */
abstract class CompatCommand extends ScriptCommand {

    @Override
    protected final int run() {
        Script script = new Script(this::tool, out(), err(), prog());
        int status = run(script);
        if (json()) {
            document(document(script, status));
        }
        return status;
    }

    /** Does what the script does, printing through {@code script}, and returns its exit status. */
    abstract int run(Script script);

    /** The JSON document of a run: the checks {@code script} recorded and the exit status. */
    abstract Object document(Script script, int status);
}
