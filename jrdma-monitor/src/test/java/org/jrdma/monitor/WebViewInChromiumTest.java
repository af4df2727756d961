package org.jrdma.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import org.jrdma.testkit.fabric.Fabric;
import org.jrdma.testkit.junit.Peers;
import org.jrdma.testkit.junit.SimulatedFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The monitor's web page in a real browser, Debian's Chromium headless driven by Selenium through
 * Debian's chromedriver: it draws every node of the fat tree, shows a link taken down with
 * ibsim's Unlink as down, and shows a node's port counters on a click. The screenshot is kept as
 * {@code target/monitor-web-view.png}.
 */
class WebViewInChromiumTest {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    @Test
    @SimulatedFabric(topology = "fat-tree")
    void pageShowsEveryNodeAndTheDownedLink(Fabric fabric, @TempDir Path profile) throws Exception {
        Peers.require(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "Debian's chromium and chromium-driver (" + CHROMIUM + ", " + CHROMEDRIVER + ")");
        try (MonitorFixture m = new MonitorFixture(fabric)) {
            fabric.unlink("leaf3", 6);
            fabric.performanceSet("leaf1", 1, "PortCounters", "SymbolErrorCounter", 3);
            m.cycle();
            ChromeOptions options = new ChromeOptions();
            options.setBinary(CHROMIUM.toFile());
            options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync", "--window-size=1400,900", "--user-data-dir=" + profile);
            ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                    .withLogFile(new File("target/chromedriver.log")).build();
            ChromeDriver driver = new ChromeDriver(service, options);
            try {
                driver.get(m.baseUrl() + "/");
                WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(20));
                wait.until(d -> d.findElements(By.cssSelector("svg g.node")).size() == 14);
                List<WebElement> nodes = driver.findElements(By.cssSelector("svg g.node"));
                assertEquals(6, driver.findElements(By.cssSelector("svg g.node.switch")).size());
                assertEquals(8, driver.findElements(By.cssSelector("svg g.node.hca")).size());
                assertTrue(nodes.stream().map(WebElement::getText).anyMatch(t -> t.contains("node08 HCA-1")));

                List<WebElement> down = driver.findElements(By.cssSelector("svg line.link.down"));
                assertEquals(1, down.size(), "one link drawn as down");
                assertTrue(down.getFirst().getDomAttribute("data-links").contains("0x0002c90300000a13:6"), down.getFirst().getDomAttribute("data-links"));
                assertEquals(1, driver.findElements(By.cssSelector("svg line.link.errors")).size(), "leaf1 to node01, with symbol errors");
                assertEquals(16, driver.findElements(By.cssSelector("svg line.link")).size(), "16 links between distinct pairs of nodes, one of them down");

                driver.findElement(By.cssSelector("svg g.node[data-guid='0x0002c90300000a11'] rect")).click();
                wait.until(d -> !d.findElements(By.id("port-counters")).isEmpty());
                String table = driver.findElement(By.id("port-counters")).getText();
                assertTrue(table.contains("SymbolErrorCounter") && table.contains("PortXmitData"), table);
                assertTrue(driver.findElement(By.cssSelector("#port-counters td.bad")).getText().startsWith("3 "), "SymbolErrorCounter 3 in red, with its rate");
                assertTrue(driver.findElement(By.id("events")).getText().contains("link went away: spine2 (0x0002c90300000a02) port 3 <-> leaf3"),
                        driver.findElement(By.id("events")).getText());
            } finally {
                Path shot = driver.getScreenshotAs(OutputType.FILE).toPath();
                Files.createDirectories(Path.of("target"));
                Files.copy(shot, Path.of("target/monitor-web-view.png"), StandardCopyOption.REPLACE_EXISTING);
                driver.quit();
            }
        }
    }
}
