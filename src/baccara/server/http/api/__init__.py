"""The HTTP surface, one module per resource; the OpenAPI schema is served at ``/docs``."""
