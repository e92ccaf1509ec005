import { Route, Switch } from 'wouter';

export function App() {
  return (
    <Switch>
      <Route path="/">Home</Route>
      <Route>Page Not Found</Route>
    </Switch>
  );
}
