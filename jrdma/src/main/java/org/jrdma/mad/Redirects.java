package org.jrdma.mad;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Iba;
import org.jrdma.iba.mad.MadClassPortInfo;
import org.jrdma.path.IBPath;

/**
 * GMP redirection (IBA 13.4.7, 13.5.3.3): a response with the redirect status carries the
 * ClassPortInfo of the agent to ask instead (RedirectGID, TC, SL, FL, LID, P_Key, QP, Q_Key).
 * Remembers, per management class and original destination, where requests are redirected, so
 * later requests go there at once (with their own path's retries and timeouts); forgotten when
 * the redirected agent stops answering, so the next request asks the original agent again.
 */
final class Redirects {
    private record Key(int mgmtClass, int dlid, Gid dgid, int dqpn) {
        static Key of(int mgmtClass, IBPath path) {
            return new Key(mgmtClass, path.dlid(), path.dgid().orElse(null), path.dqpn().orElse(Iba.QP1));
        }
    }

    /** For each redirected destination, how a path to it becomes the path to the agent redirected to. */
    private final Map<Key, UnaryOperator<IBPath>> targets = new ConcurrentHashMap<>();

    /** Where a request of {@code mgmtClass} on {@code path} goes: to a remembered redirection, or on the path itself. */
    IBPath target(int mgmtClass, IBPath path) {
        UnaryOperator<IBPath> redirect = MadAddress.isSmp(mgmtClass) ? null : targets.get(Key.of(mgmtClass, path));
        return redirect == null ? path : redirect.apply(path);
    }

    /** Forgets where requests of {@code mgmtClass} on {@code path} were redirected. */
    void forget(int mgmtClass, IBPath path) {
        targets.remove(Key.of(mgmtClass, path));
    }

    /**
     * Follows the redirection {@code redirected} answered with: the path to the agent its
     * ClassPortInfo names, remembered for the original {@code path}'s class and destination. A
     * ClassPortInfo with a LID changes the path's DLID, QP, Q_Key, SL, TClass, FlowLabel, DGID
     * (if given) and P_Key (if given); one with a GID only is resolved to a path first.
     *
     * @param resolver the path to a GID, from the SA, for a redirection that names no LID
     * @throws MadException if the ClassPortInfo names no usable agent
     */
    IBPath follow(Transaction redirected, IBPath path, Function<Gid, IBPath> resolver) {
        MadClassPortInfo cpi = redirected.attribute(MadClassPortInfo::new);
        Gid gid = cpi.redirectGid();
        boolean noGid = gid.prefix() == 0 && gid.interfaceId() == 0;
        if (cpi.redirectQp() == Iba.QP0 || cpi.redirectLid() == 0 && noGid) {
            throw new MadException(redirected + " was redirected to LID " + cpi.redirectLid() + " QP " + cpi.redirectQp()
                    + (noGid ? " without a GID" : ""), redirected.exchange());
        }
        UnaryOperator<IBPath> redirect;
        if (cpi.redirectLid() != 0) {
            redirect = p -> p.copy(b -> {
                b.dlid(cpi.redirectLid());
                if (!noGid) {
                    b.dgid(gid);
                }
                redirectTo(b, cpi);
            });
        } else {
            IBPath resolved = resolver.apply(gid);
            redirect = p -> resolved.copy(b -> redirectTo(b.retries(p.retries()).respTime(p.respTime()), cpi));
        }
        targets.put(Key.of(redirected.call().mgmtClass(), path), redirect);
        return redirect.apply(path);
    }

    private static void redirectTo(IBPath.Builder<?> b, MadClassPortInfo cpi) {
        b.dqpn(cpi.redirectQp()).qkey((int) cpi.redirectQKey()).sl(cpi.redirectSl()).trafficClass(cpi.redirectTc())
                .flowLabel(cpi.redirectFl());
        if (cpi.redirectPKey() != 0) {
            b.pkey(cpi.redirectPKey());
        }
    }
}
