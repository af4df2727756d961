package org.jrdma.tools.scripts;

/**
 * An ibtool command run in this process as a script runs the diags tool of that name in backticks,
 * for the scripts' commands ({@link ScriptCommand}) and the ibcheck commands
 * ({@code org.jrdma.tools.compat}) alike.
 *
 * @param status its exit status
 * @param text   its standard output
 */
public record ToolOutput(int status, String text) {
}
