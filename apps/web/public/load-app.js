// The landing pages (/ and /para-escolas) arrive rendered by the build and paint with no script
// (decisions 163 and 216). Their app's script tags wait in <template id="app-scripts"> and are put
// in once the page has loaded, so that a phone on a slow network spends its first seconds on the
// HTML, the CSS and the images a visitor sees, not on the app's code; the app then takes the page
// over (hydration) as before.
(function () {
  function loadApp() {
    var template = document.getElementById("app-scripts");
    if (!template) return;
    template.content.querySelectorAll("link, script").forEach(function (tag) {
      var copy = document.createElement(tag.tagName);
      for (var i = 0; i < tag.attributes.length; i++) copy.setAttribute(tag.attributes[i].name, tag.attributes[i].value);
      document.head.appendChild(copy);
    });
    template.remove();
  }
  if (document.readyState === "complete") loadApp();
  else {
    window.addEventListener("load", loadApp, { once: true });
    // An image that hangs must not keep the page's controls dead: 4 s after the HTML, the app
    // loads anyway (loadApp runs once: the template is gone after the first call).
    setTimeout(loadApp, 4000);
  }
})();
