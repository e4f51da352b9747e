"""The web console: static HTML, CSS and JavaScript modules over the public REST API."""
