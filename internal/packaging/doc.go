// Package packaging holds no code: its tests check the files that put
// envguard where its users work (the pre-commit hook, the GitHub Action,
// the CI templates in docs/ci.md, the Dockerfile and the Kubernetes
// manifests in deploy/kubernetes), reading them from the module root.
package packaging
